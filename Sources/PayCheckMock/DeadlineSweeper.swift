import Synchronization

/// Deadlines for many short waits, all watched by one sweeping task, instead of a timer per wait.
///
/// The mock bounds the time a request body may take to arrive. Racing each body against its own `Task.sleep` put a
/// timer (a dispatch source and a wake-up of its manager thread) and a child task on every request: a sixth of the
/// mock's throughput on createSession (docs/benchmarks.md). Here a wait is an entry in a table; while any entry is
/// pending, one task wakes every ``tick`` and ends those whose deadline has passed. A deadline is therefore met
/// within one tick late, never early.
final class DeadlineSweeper: Sendable {
    /// How a wait ended.
    enum Outcome: Sendable {
        /// The deadline passed first.
        case expired
        /// ``finish(_:)`` ended it first.
        case finished
    }

    /// One wait, by id.
    private enum Entry {
        /// Registered, nobody awaiting it yet.
        case pending(deadline: ContinuousClock.Instant)
        /// Awaited.
        case waiting(deadline: ContinuousClock.Instant, CheckedContinuation<Outcome, Never>)
        /// Ended before anyone awaited it.
        case ended(Outcome)
    }

    /// The table and whether the sweeping task runs.
    private struct State {
        var entries: [Int: Entry] = [:]
        var lastID = 0
        var sweeping = false
    }

    /// How often the sweeping task looks at the deadlines.
    let tick: Duration
    /// The guarded state.
    private let state = Mutex(State())

    /// Creates a sweeper that looks at its deadlines every `tick`.
    init(tick: Duration = .milliseconds(100)) {
        self.tick = tick
    }

    /// Registers a wait that expires after `duration`; await it with ``wait(_:)``, end it with ``finish(_:)``.
    func register(after duration: Duration) -> Int {
        let deadline = ContinuousClock.now.advanced(by: duration)
        let (id, startSweeping) = self.state.withLock { state -> (Int, Bool) in
            state.lastID += 1
            state.entries[state.lastID] = .pending(deadline: deadline)
            defer { state.sweeping = true }
            return (state.lastID, !state.sweeping)
        }
        if startSweeping { Task { await self.sweep() } }
        return id
    }

    /// Returns when the wait `id` expires or is finished, whichever comes first.
    func wait(_ id: Int) async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let early = self.state.withLock { state -> Outcome? in
                switch state.entries[id] {
                case .pending(let deadline):
                    state.entries[id] = .waiting(deadline: deadline, continuation)
                    return nil
                case .ended(let outcome):
                    state.entries[id] = nil
                    return outcome
                case .waiting, nil:
                    return .finished
                }
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    /// Ends the wait `id` as finished, if it has not expired yet.
    func finish(_ id: Int) {
        self.end(id, .finished)
    }

    /// Ends the wait `id` with `outcome`: resumes its waiter, or leaves the outcome for it.
    private func end(_ id: Int, _ outcome: Outcome) {
        let waiter = self.state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            switch state.entries[id] {
            case .pending:
                state.entries[id] = .ended(outcome)
                return nil
            case .waiting(_, let continuation):
                state.entries[id] = nil
                return continuation
            case .ended, nil:
                return nil
            }
        }
        waiter?.resume(returning: outcome)
    }

    /// Expires the due waits every tick, until no wait is left.
    private func sweep() async {
        while true {
            try? await Task.sleep(for: self.tick)
            let now = ContinuousClock.now
            let (due, done) = self.state.withLock { state -> ([Int], Bool) in
                let due = state.entries.compactMap { id, entry -> Int? in
                    switch entry {
                    case .pending(let deadline), .waiting(let deadline, _): deadline <= now ? id : nil
                    case .ended: nil
                    }
                }
                if state.entries.isEmpty { state.sweeping = false }
                return (due, state.entries.isEmpty)
            }
            for id in due { self.end(id, .expired) }
            if done { return }
        }
    }
}
