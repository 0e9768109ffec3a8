import Synchronization

/// The state of one PlacetoPay mock behind a mutex; no globals, one store per ``PlacetoPayMock``.
final class PlacetoPayStore: Sendable {
    /// The guarded state.
    private let state: Mutex<PlacetoPayState>
    /// The source of random bits, kept to rebuild the state on reset.
    private let random: @Sendable () -> UInt64

    /// Creates a store holding only the default sites.
    init(random: @escaping @Sendable () -> UInt64) {
        self.random = random
        self.state = Mutex(PlacetoPayState(random: random))
    }

    /// Runs `body` with exclusive access to the state. `body` must not block or wait.
    func withState<Result: Sendable>(_ body: (inout PlacetoPayState) throws -> Result) rethrows -> Result {
        try self.state.withLock { state in try body(&state) }
    }

    /// Forgets sessions, tokens, nonces and notifications and restores the default sites.
    func reset() {
        let fresh = PlacetoPayState(random: self.random)
        self.state.withLock { $0 = fresh }
    }
}
