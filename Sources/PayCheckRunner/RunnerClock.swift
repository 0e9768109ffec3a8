import Foundation
import PayCheckCore

/// The runner's notion of time for `wait:`, `retry:` and `now()`. Injected so tests never sleep.
public protocol RunnerClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Suspends for a number of seconds (throws on cancellation).
    func sleep(seconds: Double) async throws
}

/// Real time.
public struct SystemRunnerClock: RunnerClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
    /// `Task.sleep`.
    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(DurationText.nanoseconds(seconds)))
    }
}
