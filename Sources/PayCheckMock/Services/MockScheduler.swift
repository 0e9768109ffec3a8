package import PayCheckCore
package import Foundation
import Synchronization

/// Jobs that run at a mock-clock instant: session expiry, delayed outcomes, webhook retries.
///
/// A job is due once the clock of its ``ClockScope`` reads its due time or later. Due jobs run when
/// ``runDue()`` is called: the clock control route calls it after every `advance` or `set`, so when
/// `POST /__paycheck/clock` returns every job that became due has completed; the host's background tick
/// (``MockHost/runScheduler(every:)``, part of ``MockHost/run(host:port:handleSignals:onRunning:)``) calls it as
/// real time passes. Due jobs run one at a time, by due time and then by scheduling order, each with its scope bound
/// to ``ClockScope/current``; a job may schedule more jobs, and those that are already due run in the same pass.
///
/// A job must not call ``runDue()`` itself (it would wait for its own pass to end).
package final class MockScheduler: Sendable {
    /// What the lock guards.
    private struct State: Sendable {
        /// Pending jobs, in scheduling order.
        var jobs: [Job] = []
        /// The sequence number of the next job.
        var nextSequence = 1
        /// Whether some caller of ``runDue()`` is running jobs.
        var draining = false
        /// Callers of ``runDue()`` waiting for the running pass to end.
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    /// The clocks that decide when a job is due.
    private let scopes: MockClockScopes
    /// The pending jobs and the pass in progress.
    private let state = Mutex(State())

    /// Creates a scheduler reading due times from `scopes`.
    package init(scopes: MockClockScopes) {
        self.scopes = scopes
    }

    /// Schedules `work` to run once the clock of `scope` reaches `date`.
    /// - Parameters:
    ///   - date: The mock-clock instant; a past instant makes the job due at the next ``runDue()``.
    ///   - scope: The scope whose clock decides; defaults to the scope bound to the current task.
    ///   - label: A short description for ``pendingJobs``, e.g. `webhook wh-3 attempt 2`.
    ///   - work: The job.
    /// - Returns: The job's id, for ``cancel(_:)``.
    @discardableResult
    package func schedule(
        at date: Date,
        scope: ClockScope = ClockScope.current,
        label: String,
        _ work: @escaping @Sendable () async -> Void
    ) -> ScheduledJob.ID {
        self.state.withLock { state in
            let id = ScheduledJob.ID(rawValue: state.nextSequence)
            state.nextSequence += 1
            state.jobs.append(Job(id: id, due: date, scope: scope, label: label, work: work))
            return id
        }
    }

    /// Schedules `work` to run `delay` after the current time of `scope`'s clock.
    @discardableResult
    package func schedule(
        after delay: Duration,
        scope: ClockScope = ClockScope.current,
        label: String,
        _ work: @escaping @Sendable () async -> Void
    ) -> ScheduledJob.ID {
        let now = self.scopes.clock(for: scope).now()
        return self.schedule(at: now.addingTimeInterval(delay.timeInterval), scope: scope, label: label, work)
    }

    /// Removes a pending job; returns whether it was still pending.
    @discardableResult
    package func cancel(_ id: ScheduledJob.ID) -> Bool {
        self.state.withLock { state in
            guard let index = state.jobs.firstIndex(where: { $0.id == id }) else { return false }
            state.jobs.remove(at: index)
            return true
        }
    }

    /// Drops every pending job (`POST /__paycheck/reset`). A job already running finishes.
    package func cancelAll() {
        self.state.withLock { $0.jobs.removeAll() }
    }

    /// The pending jobs, by due time and then scheduling order.
    package var pendingJobs: [ScheduledJob] {
        self.state.withLock { state in
            state.jobs.sorted(by: Job.firesBefore).map {
                ScheduledJob(id: $0.id, due: $0.due, scope: $0.scope, label: $0.label)
            }
        }
    }

    /// Runs every due job, including jobs that become due while it runs, and returns when none is due.
    ///
    /// When another caller is already running jobs, waits for that pass to end instead (it picks up whatever
    /// became due meanwhile), so after this returns no job is due and none is running on this caller's behalf.
    package func runDue() async {
        let isDrainer = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            self.state.withLock { state in
                if state.draining {
                    // Resumed with `false` by the running pass once nothing is due.
                    state.waiters.append(continuation)
                } else {
                    state.draining = true
                    continuation.resume(returning: true)
                }
            }
        }
        guard isDrainer else { return }
        while true {
            let next = self.state.withLock { state -> Job? in
                if let job = self.popDue(&state) { return job }
                state.draining = false
                let waiters = state.waiters
                state.waiters = []
                for waiter in waiters { waiter.resume(returning: false) }
                return nil
            }
            guard let job = next else { return }
            await ClockScope.$current.withValue(job.scope) {
                await job.work()
            }
        }
    }

    /// Removes and returns the first due job in firing order, or `nil` when none is due.
    private func popDue(_ state: inout State) -> Job? {
        var best: Int?
        for (index, job) in state.jobs.enumerated() where job.due <= self.scopes.clock(for: job.scope).now() {
            if let current = best, !Job.firesBefore(job, state.jobs[current]) { continue }
            best = index
        }
        return best.map { state.jobs.remove(at: $0) }
    }
}
