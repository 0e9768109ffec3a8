package import Foundation
import PayCheckRunner
import Synchronization

/// A runner clock whose sleeps return at once and move virtual time forward: tests never wait.
///
/// ``sleep(until:)`` (the run timeout's watchdog) is the exception: it suspends until other sleepers have
/// moved virtual time to its deadline, or until it is cancelled.
package final class VirtualClock: RunnerClock {
    /// A suspended ``sleep(until:)``.
    private struct Waiter {
        /// Identifies the waiter for cancellation.
        var id: Int
        /// When it resumes.
        var deadline: Date
        /// Resumes it.
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// The virtual time and the suspended waiters.
    private struct State {
        /// The virtual time.
        var now: Date
        /// Waiters whose deadline has not come.
        var waiters: [Waiter] = []
        /// The last waiter id handed out.
        var lastID = 0
        /// Waiters cancelled before they were suspended.
        var cancelled: Set<Int> = []
    }

    /// The clock's state.
    private let state: Mutex<State>

    /// Starts at `start`.
    package init(start: Date = Date(timeIntervalSince1970: 1_768_489_200)) {
        state = Mutex(State(now: start))
    }

    /// The virtual time.
    package func now() -> Date { state.withLock { $0.now } }

    /// Advances virtual time without waiting (and resumes the waiters whose deadline it reaches).
    package func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        let due = state.withLock { s -> [Waiter] in
            s.now = s.now.addingTimeInterval(max(0, seconds))
            let now = s.now
            let due = s.waiters.filter { $0.deadline <= now }
            s.waiters.removeAll { $0.deadline <= now }
            return due
        }
        for waiter in due { waiter.continuation.resume() }
        await Task.yield()
    }

    /// Suspends until virtual time reaches `deadline`.
    package func sleep(until deadline: Date) async throws {
        let id = state.withLock { s in
            s.lastID += 1
            return s.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                /// Whether the waiter resumes at once (deadline reached), fails (already cancelled) or waits.
                enum Start { case now, cancelled, later }
                let start = state.withLock { s -> Start in
                    if s.cancelled.remove(id) != nil { return .cancelled }
                    if s.now >= deadline { return .now }
                    s.waiters.append(Waiter(id: id, deadline: deadline, continuation: continuation))
                    return .later
                }
                switch start {
                case .now: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .later: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { s -> Waiter? in
                guard let index = s.waiters.firstIndex(where: { $0.id == id }) else {
                    s.cancelled.insert(id)
                    return nil
                }
                return s.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}
