import Synchronization

/// A provider mock's state behind a mutex, rebuilt from its initial value on reset: the one store every provider
/// mock keeps its state in (no globals; one store per mock instance).
///
/// A ``BoundedState`` is kept to ``capacity`` resources: after each change the oldest are evicted, and counted.
final class ProviderStateStore<State: Sendable>: Sendable {
    /// The guarded state.
    private let state: Mutex<State>
    /// Makes the initial state, again on reset.
    private let initial: @Sendable () -> State
    /// The resources a bounded state holds; `nil` for an unbounded one.
    private let count: (@Sendable (State) -> Int)?
    /// Removes a bounded state's oldest resource; `false` when it has none.
    private let evictOldest: (@Sendable (inout State) -> Bool)?
    /// The most resources kept (``MockLimits/providerResources``).
    private let limit = Atomic<Int>(MockLimits().providerResources)
    /// Resources evicted so far.
    private let evictions = Atomic<Int>(0)

    /// Creates a store holding `initial()`.
    package convenience init(_ initial: @escaping @Sendable () -> State) {
        self.init(initial: initial, count: nil, evictOldest: nil)
    }

    init(
        initial: @escaping @Sendable () -> State, count: (@Sendable (State) -> Int)?,
        evictOldest: (@Sendable (inout State) -> Bool)?
    ) {
        self.initial = initial
        self.state = Mutex(initial())
        self.count = count
        self.evictOldest = evictOldest
    }

    /// The most resources kept.
    package var capacity: Int {
        get { self.limit.load(ordering: .relaxed) }
        set { self.limit.store(max(1, newValue), ordering: .relaxed) }
    }

    /// The resources held (`nil` when the state is not bounded) and evicted so far.
    package var usage: (entries: Int?, evicted: Int) {
        let entries = self.count.map { count in self.state.withLock { count($0) } }
        return (entries, self.evictions.load(ordering: .relaxed))
    }

    /// Runs `body` with exclusive access to the state, then evicts past the capacity. `body` must not block or wait.
    package func withState<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { (state: inout State) throws(Failure) -> Result in
            let result = try body(&state)
            if let count = self.count, let evictOldest = self.evictOldest {
                let capacity = self.capacity
                var evicted = 0
                while count(state) > capacity, evictOldest(&state) { evicted += 1 }
                if evicted > 0 { self.evictions.add(evicted, ordering: .relaxed) }
            }
            return result
        }
    }

    /// Puts the initial state back.
    package func reset() {
        let fresh = initial()
        state.withLock { $0 = fresh }
    }
}

extension ProviderStateStore where State: BoundedState {
    /// Creates a store holding `initial()`, kept to ``capacity`` resources.
    convenience init(_ initial: @escaping @Sendable () -> State) {
        self.init(initial: initial, count: { $0.resourceCount }, evictOldest: { $0.evictOldest() })
    }
}

/// A provider mock's state whose resources (sessions, payments) are bounded: past the store's capacity the oldest
/// are evicted, so a mock left running under load keeps a bounded state (``MockLimits/providerResources``).
protocol BoundedState: Sendable {
    /// The resources the bound applies to.
    var resourceCount: Int { get }
    /// Removes the oldest resource and what only it refers to; `false` when there is none.
    mutating func evictOldest() -> Bool
}
