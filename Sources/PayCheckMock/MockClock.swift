package import PayCheckCore
package import Foundation
import Synchronization

/// The mock's notion of "now": an injected base time source plus an adjustable offset.
///
/// Suites move mock time forward (session expiry, seed windows) through the control API instead of
/// sleeping; tests inject a fixed `base` so every timestamp is deterministic.
package final class MockClock: Sendable {
    /// The underlying time source, usually the wall clock.
    private let base: @Sendable () -> Date
    /// Seconds added to `base()`; changed by `advance(by:)` and `set(to:)`.
    private let offset: Mutex<TimeInterval>
    /// How many times ``reset()`` ran.
    private let resets = Mutex(0)

    /// Creates a clock that reads `base` and starts with no offset.
    /// - Parameter base: The underlying time source; defaults to the system clock.
    package init(base: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
        self.offset = Mutex(0)
    }

    /// Returns the current mock time.
    package func now() -> Date {
        let offset = self.offset.withLock { $0 }
        return self.base().addingTimeInterval(offset)
    }

    /// Moves mock time forward (or back, for a negative value) by `seconds`.
    package func advance(by seconds: Double) {
        self.offset.withLock { $0 += seconds }
    }

    /// Makes `now()` return `date` at this instant; mock time keeps flowing from there with the base clock.
    package func set(to date: Date) {
        let base = self.base()
        self.offset.withLock { $0 = date.timeIntervalSince(base) }
    }

    /// Removes any offset so that `now()` equals the base time source again.
    package func reset() {
        self.offset.withLock { $0 = 0 }
        self.resets.withLock { $0 += 1 }
    }

    /// How many times the clock was reset. The runner resets it after every case that moved it or changed a mock's
    /// settings (those cases run alone), so a provider can drop settings made before the last reset (Yuno's
    /// `mock: gateway`) and a case that failed midway does not leave them to the next one.
    package var resetCount: Int {
        self.resets.withLock { $0 }
    }

    /// A new clock over the same base time source, with no offset: the clock of another ``ClockScope``.
    func sibling() -> MockClock {
        MockClock(base: self.base)
    }

    /// The current offset from the base time source, in seconds.
    package var offsetSeconds: Double {
        self.offset.withLock { $0 }
    }
}

extension MockClock {
    /// The base time, without the simulated offset: what a merchant's own clock reads. Credential
    /// freshness checks (PlacetoPay's seed window) use it, so `mock: clock` simulates elapsed time for
    /// sessions without making freshly signed requests look stale.
    func wallNow() -> Date { base() }
}
