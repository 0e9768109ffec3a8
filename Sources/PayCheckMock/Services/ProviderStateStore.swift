import Synchronization

/// A provider mock's state behind a mutex, rebuilt from its initial value on reset: the one store every provider
/// mock keeps its state in (no globals; one store per mock instance).
public final class ProviderStateStore<State: Sendable>: Sendable {
    /// The guarded state.
    private let state: Mutex<State>
    /// Makes the initial state, again on reset.
    private let initial: @Sendable () -> State

    /// Creates a store holding `initial()`.
    public init(_ initial: @escaping @Sendable () -> State) {
        self.initial = initial
        self.state = Mutex(initial())
    }

    /// Runs `body` with exclusive access to the state. `body` must not block or wait.
    public func withState<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { (state: inout State) throws(Failure) -> Result in try body(&state) }
    }

    /// Puts the initial state back.
    public func reset() {
        let fresh = initial()
        state.withLock { $0 = fresh }
    }
}
