import Foundation
import PayCheckRunner
import Synchronization

/// A runner clock whose sleeps return at once and move virtual time forward: tests never wait.
public final class VirtualClock: RunnerClock {
    private let current: Mutex<Date>

    /// Starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_768_489_200)) {
        current = Mutex(start)
    }

    /// The virtual time.
    public func now() -> Date { current.withLock { $0 } }

    /// Advances virtual time without waiting.
    public func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        current.withLock { $0 = $0.addingTimeInterval(max(0, seconds)) }
        await Task.yield()
    }
}
