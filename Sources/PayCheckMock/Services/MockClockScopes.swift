import Synchronization

/// The registry of mock clocks, one per ``ClockScope``: the default scope is the host's own clock, and every other
/// scope gets its own clock, created on first use over the same base time source, so that time travel in one scope
/// (`POST /__paycheck/clock` with the scope header) never moves another.
public final class MockClockScopes: Sendable {
    /// The most scopes kept at once besides the default one; beyond it a new scope is refused (a runaway client
    /// inventing a scope per request should get an error, not an ever-growing table).
    public static let maximumScopes = 4096

    /// The clock of ``ClockScope/default``.
    public let defaultClock: MockClock
    /// The clocks of the other scopes, by id.
    private let clocks = Mutex<[String: MockClock]>([:])

    /// Creates a registry whose default scope reads `defaultClock`.
    public init(defaultClock: MockClock) {
        self.defaultClock = defaultClock
    }

    /// The clock of `scope`, created (with no offset) on first use.
    ///
    /// When ``maximumScopes`` scopes exist already, an unknown scope falls back to the default clock; use
    /// ``clockIfAvailable(for:)`` to tell that case apart.
    public func clock(for scope: ClockScope) -> MockClock {
        self.clockIfAvailable(for: scope) ?? self.defaultClock
    }

    /// The clock of `scope`, created on first use; `nil` when it would exceed ``maximumScopes``.
    public func clockIfAvailable(for scope: ClockScope) -> MockClock? {
        if scope == .default { return self.defaultClock }
        return self.clocks.withLock { clocks -> MockClock? in
            if let clock = clocks[scope.id] { return clock }
            guard clocks.count < Self.maximumScopes else { return nil }
            let clock = self.defaultClock.sibling()
            clocks[scope.id] = clock
            return clock
        }
    }

    /// The clock of the scope bound to the current task (``ClockScope/current``).
    public var current: MockClock {
        self.clock(for: ClockScope.current)
    }

    /// The ids of the scopes created so far, sorted, without the default one.
    public var scopeIDs: [String] {
        self.clocks.withLock { $0.keys.sorted() }
    }

    /// Drops every scope but the default one and resets the default clock's offset.
    public func reset() {
        self.clocks.withLock { $0.removeAll() }
        self.defaultClock.reset()
    }
}
