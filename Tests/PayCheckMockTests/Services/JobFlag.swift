import Synchronization

/// A flag a test job sets, read by the test.
final class JobFlag: Sendable {
    /// The flag.
    private let value = Mutex(false)

    /// Sets the flag.
    func set() {
        self.value.withLock { $0 = true }
    }

    /// Whether the flag is set.
    var isSet: Bool {
        self.value.withLock { $0 }
    }
}
