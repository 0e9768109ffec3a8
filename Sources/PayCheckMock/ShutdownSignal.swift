import Synchronization

/// Tells `delay` faults that the host is stopping, so a graceful shutdown never waits on one.
///
/// Whoever stops the mock no longer waits for its answers (the run is over, or it timed out): a delay of
/// seconds must not hold the process after its client gave up.
final class ShutdownSignal: Sendable {
    /// Whether the signal fired, and the sleepers waiting for it.
    private struct State {
        /// Whether ``fire()`` was called.
        var fired = false
        /// Sleepers waiting for the signal, by id.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        /// The last id handed out.
        var lastID = 0
    }

    /// The state, guarded.
    private let state = Mutex(State())

    /// Creates a signal that has not fired.
    init() {}

    /// Fires the signal: every current and future ``sleep(for:)`` returns at once.
    func fire() {
        let waiters = state.withLock { s in
            s.fired = true
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Sleeps for `duration`, or less when the signal fires or the task is cancelled.
    func sleep(for duration: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask { await self.waitForFire() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns when the signal fires or the task is cancelled.
    private func waitForFire() async {
        let id = state.withLock { s in
            s.lastID += 1
            return s.lastID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    // A cancellation whose handler ran before this point is seen here: the flag is set first.
                    if s.fired || Task.isCancelled { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { s in s.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
