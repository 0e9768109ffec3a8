import Synchronization

/// A flag set once, read by concurrent cases (for `--fail-fast`).
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Sets the flag.
    func set() { flag.store(true, ordering: .relaxed) }
    /// Whether the flag is set.
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
