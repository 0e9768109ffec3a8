import PayCheckCore
import Synchronization

/// The generic JSON key-value store behind `/__paycheck/kv`, used by example suites and benchmarks.
///
/// Values are kept as the validated JSON that was sent. At most `capacity` values and `byteCapacity` bytes of JSON
/// are kept: past either bound the oldest stored values are evicted (and counted).
final class KeyValueStore: Sendable {
    /// Guarded contents.
    private struct State {
        /// Stored JSON values by key, with their size in bytes and the sequence number of their store.
        var values: [String: (json: Value, bytes: Int, sequence: Int)] = [:]
        /// (key, sequence) in the order stored, from `start` on; an entry whose sequence is no longer the key's is
        /// stale (the key was stored again, or deleted) and skipped.
        var order: [(key: String, sequence: Int)] = []
        /// Index of the oldest entry in `order`.
        var start = 0
        /// The last sequence number used.
        var sequence = 0
        /// Bytes of the kept values.
        var bytes = 0
        /// Values evicted so far.
        var evicted = 0
        /// The last number used for a generated `kv-N` id.
        var lastGeneratedID = 0

        /// Stores `json` under `key` and evicts the oldest values past the bounds.
        mutating func store(_ key: String, _ json: Value, capacity: Int, byteCapacity: Int) {
            let size = JSONText.encode(json).utf8.count
            if let previous = self.values[key] { self.bytes -= previous.bytes }
            self.sequence += 1
            self.values[key] = (json, size, self.sequence)
            self.bytes += size
            self.order.append((key, self.sequence))
            while self.values.count > capacity || (self.bytes > byteCapacity && self.values.count > 1),
                self.start < self.order.count
            {
                let oldest = self.order[self.start]
                self.start += 1
                guard let value = self.values[oldest.key], value.sequence == oldest.sequence else { continue }
                self.values.removeValue(forKey: oldest.key)
                self.bytes -= value.bytes
                self.evicted += 1
            }
            if self.start > 1024, self.start * 2 > self.order.count {
                self.order.removeFirst(self.start)
                self.start = 0
            }
        }
    }

    /// The number of values kept.
    let capacity: Int
    /// The bytes of JSON kept.
    let byteCapacity: Int
    /// The guarded state.
    private let state = Mutex(State())

    /// Creates an empty store with its bounds.
    init(capacity: Int = 10_000, byteCapacity: Int = 32 * 1024 * 1024) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
    }

    /// Stores `json` under a fresh id `kv-N` (skipping ids already taken by `put`) and returns the id.
    func insert(_ json: Value) -> String {
        self.state.withLock { state in
            var id: String
            repeat {
                state.lastGeneratedID += 1
                id = "kv-\(state.lastGeneratedID)"
            } while state.values[id] != nil
            state.store(id, json, capacity: self.capacity, byteCapacity: self.byteCapacity)
            return id
        }
    }

    /// Stores `json` under `key`, replacing any previous value.
    func put(_ key: String, _ json: Value) {
        self.state.withLock { $0.store(key, json, capacity: self.capacity, byteCapacity: self.byteCapacity) }
    }

    /// The JSON text stored under `key`, if any.
    func get(_ key: String) -> Value? {
        self.state.withLock { $0.values[key]?.json }
    }

    /// Removes the value under `key`; returns whether there was one.
    func delete(_ key: String) -> Bool {
        self.state.withLock { state in
            guard let removed = state.values.removeValue(forKey: key) else { return false }
            state.bytes -= removed.bytes
            return true
        }
    }

    /// The values and bytes kept, and the values evicted so far.
    var usage: (entries: Int, bytes: Int, evicted: Int) {
        self.state.withLock { ($0.values.count, $0.bytes, $0.evicted) }
    }

    /// Removes every value and restarts generated ids at `kv-1` (the eviction count stays).
    func reset() {
        self.state.withLock { state in
            state = State(evicted: state.evicted)
        }
    }
}
