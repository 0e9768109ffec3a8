import PayCheckCore
import Foundation
import PayCheckMock
import Testing

@Suite("Scheduler on the mock clock")
struct MockSchedulerTests {
    /// A scheduler over a fixed default clock, with that clock and the scopes.
    private func makeScheduler() -> (MockScheduler, MockClock, MockClockScopes) {
        let clock = fixedClock()
        let scopes = MockClockScopes(defaultClock: clock)
        return (MockScheduler(scopes: scopes), clock, scopes)
    }

    @Test("due jobs fire by due time, then by scheduling order; jobs not yet due wait")
    func ordering() async throws {
        let (scheduler, clock, _) = self.makeScheduler()
        let fired = Recorder<String>()
        let record = { @Sendable (name: String) in fired.append(name) }
        scheduler.schedule(at: fixedBase.addingTimeInterval(120), label: "c") { record("c") }
        scheduler.schedule(at: fixedBase.addingTimeInterval(60), label: "a") { record("a") }
        scheduler.schedule(at: fixedBase.addingTimeInterval(120), label: "d") { record("d") }
        scheduler.schedule(at: fixedBase.addingTimeInterval(60), label: "b") { record("b") }
        scheduler.schedule(at: fixedBase.addingTimeInterval(600), label: "later") { record("later") }

        await scheduler.runDue()
        #expect(fired.values.isEmpty)
        clock.advance(by: 120)
        await scheduler.runDue()
        #expect(fired.values == ["a", "b", "c", "d"])
        #expect(scheduler.pendingJobs.map(\.label) == ["later"])
        #expect(scheduler.pendingJobs.first?.due == fixedBase.addingTimeInterval(600))
    }

    @Test("a job may schedule more jobs; those already due run in the same pass, after it")
    func jobsScheduleJobs() async throws {
        let (scheduler, clock, _) = self.makeScheduler()
        let fired = Recorder<String>()
        scheduler.schedule(after: .seconds(10), label: "parent") {
            fired.append("parent")
            scheduler.schedule(after: .zero, label: "child") { fired.append("child") }
            scheduler.schedule(after: .seconds(3600), label: "grandchild") {
                fired.append("grandchild")
            }
        }
        clock.advance(by: 10)
        await scheduler.runDue()
        #expect(fired.values == ["parent", "child"])
        #expect(scheduler.pendingJobs.map(\.label) == ["grandchild"])
    }

    @Test("cancelled jobs never fire; cancelAll drops every pending job")
    func cancel() async throws {
        let (scheduler, clock, _) = self.makeScheduler()
        let count = Recorder<Int>()
        let id = scheduler.schedule(after: .seconds(1), label: "one") { count.append(1) }
        scheduler.schedule(after: .seconds(1), label: "two") { count.append(10) }
        #expect(scheduler.cancel(id))
        #expect(!scheduler.cancel(id))
        clock.advance(by: 1)
        await scheduler.runDue()
        #expect(count.values.reduce(0, +) == 10)
        scheduler.schedule(after: .zero, label: "three") { count.append(100) }
        scheduler.cancelAll()
        await scheduler.runDue()
        #expect(count.values.reduce(0, +) == 10)
    }

    @Test("a job is due on its own scope's clock and runs with that scope bound")
    func scopedJobs() async throws {
        let (scheduler, clock, scopes) = self.makeScheduler()
        let scope = try #require(ClockScope("shard-2"))
        let seen = Recorder<String>()
        scheduler.schedule(at: fixedBase.addingTimeInterval(60), scope: scope, label: "scoped") {
            seen.append(ClockScope.current.id)
        }
        clock.advance(by: 3600)
        await scheduler.runDue()
        #expect(seen.values.isEmpty)
        scopes.clock(for: scope).advance(by: 60)
        await scheduler.runDue()
        #expect(seen.values == ["shard-2"])
    }

    @Test("concurrent callers of runDue all return only after every due job has run, each job once")
    func concurrentRunDue() async throws {
        let (scheduler, clock, _) = self.makeScheduler()
        let count = Recorder<Int>()
        for index in 0..<50 {
            scheduler.schedule(after: .seconds(Int64(index % 5)), label: "job \(index)") {
                await Task.yield()
                count.append(1)
            }
        }
        clock.advance(by: 10)
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await scheduler.runDue()
                    return count.values.reduce(0, +)
                }
            }
            for await seen in group {
                #expect(seen == 50)
            }
        }
        #expect(scheduler.pendingJobs.isEmpty)
    }

    @Test("the host's background tick ends as soon as its task is cancelled")
    func tickEndsOnCancellation() async {
        let host = MockHost(providers: [], clock: fixedClock())
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await host.runScheduler(every: .seconds(3600)) }
            group.cancelAll()
        }
    }
}
