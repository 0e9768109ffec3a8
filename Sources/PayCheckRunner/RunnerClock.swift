package import Foundation
import PayCheckCore

/// The runner's notion of time for `wait:`, `retry:`, `now()` and the run timeout. Injected so tests never sleep.
package protocol RunnerClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Suspends for a number of seconds (throws on cancellation).
    func sleep(seconds: Double) async throws
    /// Suspends until the clock reads `deadline` or later (throws on cancellation). The run timeout's watchdog
    /// waits here; a test clock resumes it only when other sleepers move time past `deadline`.
    func sleep(until deadline: Date) async throws
}

extension RunnerClock {
    /// Sleeps for the time left until `deadline`.
    package func sleep(until deadline: Date) async throws {
        try await sleep(seconds: deadline.timeIntervalSince(now()))
    }
}

/// Real time.
package struct SystemRunnerClock: RunnerClock {
    /// Creates the system clock.
    package init() {}
    /// `Date()`.
    package func now() -> Date { Date() }
    /// `Task.sleep`.
    package func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(DurationText.nanoseconds(seconds)))
    }
}
