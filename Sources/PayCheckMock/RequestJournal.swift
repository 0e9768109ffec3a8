import Foundation
import Synchronization

/// A bounded, thread-safe log of the requests the mock host received, oldest first.
///
/// When full, the oldest entry is dropped for each new one (a ring buffer), so recording stays O(1).
public final class RequestJournal: Sendable {
    /// Ring-buffer storage guarded by the mutex.
    private struct Storage {
        /// Stored records; at most `capacity` of them.
        var items: [RecordedRequest] = []
        /// Index of the oldest record once `items` is full.
        var start = 0
    }

    /// The number of records kept; older ones are discarded.
    public let capacity: Int
    /// The guarded ring buffer.
    private let storage = Mutex(Storage())

    /// Creates an empty journal that keeps the last `capacity` requests (at least one).
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// Appends `request`, dropping the oldest record when the journal is full.
    public func record(_ request: RecordedRequest) {
        let capacity = self.capacity
        self.storage.withLock { storage in
            if storage.items.count < capacity {
                storage.items.append(request)
            } else {
                storage.items[storage.start] = request
                storage.start = (storage.start + 1) % capacity
            }
        }
    }

    /// Returns the kept records, oldest first, whose path starts with `pathPrefix` (all when empty).
    public func entries(pathPrefix: String = "") -> [RecordedRequest] {
        let ordered = self.storage.withLock { storage in
            Array(storage.items[storage.start...] + storage.items[..<storage.start])
        }
        guard !pathPrefix.isEmpty else { return ordered }
        return ordered.filter { $0.path.hasPrefix(pathPrefix) }
    }

    /// The number of records kept.
    public var count: Int {
        self.storage.withLock { $0.items.count }
    }

    /// Removes every record.
    public func clear() {
        self.storage.withLock { $0 = Storage() }
    }
}
