import Synchronization

/// A thread-safe list that test jobs append to and tests read.
final class Recorder<Element: Sendable>: Sendable {
    /// The elements, in append order.
    private let elements = Mutex<[Element]>([])

    /// Creates an empty recorder.
    init() {}

    /// Appends `element`.
    func append(_ element: Element) {
        self.elements.withLock { $0.append(element) }
    }

    /// The elements so far.
    var values: [Element] {
        self.elements.withLock { $0 }
    }

    /// How many elements so far.
    var count: Int {
        self.elements.withLock { $0.count }
    }
}
