import Synchronization

/// Collects a run's warnings from concurrent cases, in the order they arrive, and announces each once as a
/// ``RunEvent/warning(_:)``.
final class WarningLog: Sendable {
    /// The warnings so far.
    private let warnings = Mutex<[String]>([])
    /// Receives each new warning.
    private let onEvent: @Sendable (RunEvent) -> Void

    /// Creates an empty log that reports to `onEvent`.
    init(onEvent: @escaping @Sendable (RunEvent) -> Void) {
        self.onEvent = onEvent
    }

    /// Adds a warning (a repeated one is kept once).
    func add(_ warning: String) {
        let isNew = warnings.withLock { list in
            guard !list.contains(warning) else { return false }
            list.append(warning)
            return true
        }
        if isNew { onEvent(.warning(warning)) }
    }

    /// Every warning, in order.
    var all: [String] { warnings.withLock { $0 } }
}
