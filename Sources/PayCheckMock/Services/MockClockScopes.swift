package import PayCheckCore
import Synchronization

/// The registry of mock clocks, one per ``ClockScope``: the default scope is the host's own clock, and every other
/// scope gets its own clock, created on first use over the same base time source, so that time travel in one scope
/// (`POST /__paycheck/clock` with the scope header) never moves another.
package final class MockClockScopes: Sendable {
    /// The most scopes kept at once besides the default one; a new scope beyond it evicts the scope used least
    /// recently, so a standalone mock that serves one run after another (a new scope each) keeps working for ever
    /// while the table stays bounded.
    package static let maximumScopes = 4096

    /// The clock of ``ClockScope/default``.
    package let defaultClock: MockClock
    /// The clocks of the other scopes, by id, with when each was last used.
    private let clocks = Mutex<Table>(Table())

    /// The scope table and its use counter.
    private struct Table {
        /// Clock and last use (a sequence number) by scope id.
        var entries: [String: (clock: MockClock, lastUse: UInt64)] = [:]
        /// The next use number.
        var uses: UInt64 = 0
    }

    /// Creates a registry whose default scope reads `defaultClock`.
    package init(defaultClock: MockClock) {
        self.defaultClock = defaultClock
    }

    /// The clock of `scope`, created (with no offset) on first use; when ``maximumScopes`` scopes exist already,
    /// the least recently used one is dropped first.
    package func clock(for scope: ClockScope) -> MockClock {
        if scope == .default { return self.defaultClock }
        return self.clocks.withLock { table -> MockClock in
            table.uses += 1
            if let entry = table.entries[scope.id] {
                table.entries[scope.id]?.lastUse = table.uses
                return entry.clock
            }
            if table.entries.count >= Self.maximumScopes,
                let oldest = table.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                table.entries.removeValue(forKey: oldest)
            }
            let clock = self.defaultClock.sibling()
            table.entries[scope.id] = (clock, table.uses)
            return clock
        }
    }

    /// The clock of the scope bound to the current task (``ClockScope/current``).
    package var current: MockClock {
        self.clock(for: ClockScope.current)
    }

    /// The ids of the scopes created so far, sorted, without the default one.
    package var scopeIDs: [String] {
        self.clocks.withLock { $0.entries.keys.sorted() }
    }

    /// Drops every scope but the default one and resets the default clock's offset.
    package func reset() {
        self.clocks.withLock { $0.entries.removeAll() }
        self.defaultClock.reset()
    }
}
