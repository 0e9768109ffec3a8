import PayCheckCore
import Synchronization

/// The generic JSON key-value store behind `/__paycheck/kv`, used by example suites and benchmarks.
///
/// Values are kept as the validated JSON text that was sent, so they are returned byte-for-byte.
final class KeyValueStore: Sendable {
    /// Guarded contents.
    private struct State {
        /// Stored JSON texts by key.
        var values: [String: Value] = [:]
        /// The last number used for a generated `kv-N` id.
        var lastGeneratedID = 0
    }

    /// The guarded state.
    private let state = Mutex(State())

    /// Creates an empty store.
    init() {}

    /// Stores `json` under a fresh id `kv-N` (skipping ids already taken by `put`) and returns the id.
    func insert(_ json: Value) -> String {
        self.state.withLock { state in
            var id: String
            repeat {
                state.lastGeneratedID += 1
                id = "kv-\(state.lastGeneratedID)"
            } while state.values[id] != nil
            state.values[id] = json
            return id
        }
    }

    /// Stores `json` under `key`, replacing any previous value.
    func put(_ key: String, _ json: Value) {
        self.state.withLock { $0.values[key] = json }
    }

    /// The JSON text stored under `key`, if any.
    func get(_ key: String) -> Value? {
        self.state.withLock { $0.values[key] }
    }

    /// Removes the value under `key`; returns whether there was one.
    func delete(_ key: String) -> Bool {
        self.state.withLock { $0.values.removeValue(forKey: key) != nil }
    }

    /// Removes every value and restarts generated ids at `kv-1`.
    func reset() {
        self.state.withLock { $0 = State() }
    }
}
