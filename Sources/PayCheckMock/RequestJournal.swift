import Foundation
import Synchronization
package import PayCheckCore

/// A bounded, thread-safe log of the requests the mock host received, oldest first.
///
/// It keeps at most ``capacity`` requests and ``byteCapacity`` bytes; past either bound the oldest records are
/// evicted (and counted in ``evicted``), so recording stays amortised O(1) and memory stays bounded.
///
/// Secrets are masked when a record leaves the journal, never before: a record is kept as received with the names of
/// its provider's secret fields, and ``entries(_:)`` hands out only masked copies (``RecordedRequest/masked(_:)``).
/// Masking parses a JSON body and writes it again; done on every request, it was a tenth of the mock's CPU under
/// load, while most records are evicted unread (docs/benchmarks.md).
package final class RequestJournal: Sendable {
    /// A record as received, with the secret field names (lower case) to mask when it is read.
    private struct Item {
        var record: RecordedRequest
        var secrets: Set<String>
    }

    /// Storage guarded by the mutex.
    private struct Storage {
        /// Stored records from `start` on; the slots before `start` were evicted and are compacted away.
        var items: [Item] = []
        /// Index of the oldest kept record.
        var start = 0
        /// Bytes of the kept records.
        var bytes = 0
        /// Records evicted so far.
        var evicted = 0
        /// The sequence number of the last record.
        var lastSequence = 0
    }

    /// The number of records kept; older ones are evicted.
    package let capacity: Int
    /// The bytes kept; older records are evicted.
    package let byteCapacity: Int
    /// The guarded storage.
    private let storage = Mutex(Storage())

    /// Creates an empty journal that keeps the last `capacity` requests (at least one) and at most `byteCapacity`
    /// bytes of them (a single larger record is still kept, alone).
    package init(capacity: Int = 10_000, byteCapacity: Int = 32 * 1024 * 1024) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
    }

    /// Appends `request`, to be read with the fields named in `secrets` (lower case) masked and every card number cut
    /// to its last four digits, evicting the oldest records past the bounds.
    package func record(_ request: RecordedRequest, secrets: Set<String> = []) {
        let (capacity, byteCapacity) = (self.capacity, self.byteCapacity)
        let size = request.byteSize
        self.storage.withLock { storage in
            var request = request
            storage.lastSequence += 1
            request.sequence = storage.lastSequence
            for index in request.findings.indices { request.findings[index].sequence = storage.lastSequence }
            storage.items.append(Item(record: request, secrets: secrets))
            storage.bytes += size
            while storage.items.count - storage.start > capacity
                || (storage.bytes > byteCapacity && storage.items.count - storage.start > 1)
            {
                storage.bytes -= storage.items[storage.start].record.byteSize
                storage.start += 1
                storage.evicted += 1
            }
            if storage.start > 1024, storage.start * 2 > storage.items.count {
                storage.items.removeFirst(storage.start)
                storage.start = 0
            }
        }
    }

    /// Returns the kept records, masked, oldest first, whose path starts with `pathPrefix` (all when empty).
    package func entries(pathPrefix: String = "") -> [RecordedRequest] {
        self.entries(Filter(pathPrefix: pathPrefix))
    }

    /// Takes the next number for something that happened outside the journal (a webhook attempt), so it sorts
    /// among the records by when it happened.
    func takeSequence() -> Int {
        self.storage.withLock {
            $0.lastSequence += 1; return $0.lastSequence
        }
    }

    /// The kept records that match `filter`, masked, oldest first. Masking happens outside the lock.
    package func entries(_ filter: Filter) -> [RecordedRequest] {
        let items = self.storage.withLock { storage in
            storage.items[storage.start...].filter { filter.matches($0.record) }
        }
        return items.map { $0.record.masked($0.secrets) }
    }

    /// The sequence number the next record will get (records after a point in time are those with at least it).
    package var nextSequence: Int {
        self.storage.withLock { $0.lastSequence + 1 }
    }

    /// Which records ``entries(_:)`` returns.
    package struct Filter: Sendable {
        /// Records whose path starts with it (all when empty).
        package var pathPrefix = ""
        /// Records served in this clock scope (any when `nil`).
        package var scope: String?
        /// Records of this origin (any when `nil`).
        package var origin: RecordedRequest.Origin?
        /// Records numbered at least this.
        package var from = 0

        /// Creates a filter; every field defaults to "any".
        package init(pathPrefix: String = "", scope: String? = nil, origin: RecordedRequest.Origin? = nil, from: Int = 0) {
            self.pathPrefix = pathPrefix
            self.scope = scope
            self.origin = origin
            self.from = from
        }

        /// Whether `entry` passes.
        func matches(_ entry: RecordedRequest) -> Bool {
            entry.sequence >= self.from && (self.pathPrefix.isEmpty || entry.path.hasPrefix(self.pathPrefix))
                && (self.scope.map { $0 == entry.scope } ?? true) && (self.origin.map { $0 == entry.origin } ?? true)
        }
    }

    /// The number of records kept.
    package var count: Int {
        self.storage.withLock { $0.items.count - $0.start }
    }

    /// The bytes kept and the records evicted so far.
    package var usage: (entries: Int, bytes: Int, evicted: Int) {
        self.storage.withLock { ($0.items.count - $0.start, $0.bytes, $0.evicted) }
    }

    /// Removes every record (the eviction count stays).
    package func clear() {
        self.storage.withLock { storage in
            storage = Storage(evicted: storage.evicted, lastSequence: storage.lastSequence)
        }
    }
}

extension RecordedRequest {
    /// What the record holds, roughly in bytes: body, headers, path and query.
    var byteSize: Int {
        self.body.utf8.count + self.path.utf8.count + self.query.utf8.count + (self.answer?.body.utf8.count ?? 0)
            + self.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}
