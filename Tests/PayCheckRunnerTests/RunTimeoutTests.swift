import Foundation
import PayCheckCore
import PayCheckRunner
import PayCheckTestSupport
import Testing

@Suite("Run timeout")
struct RunTimeoutTests {
    @Test("a wait longer than the time left stops at the deadline and is reported as timed out; later cases do not run")
    func waitStopsAtDeadline() async throws {
        var configuration = RunConfiguration()
        configuration.jobs = 1
        configuration.runTimeout = 1
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "slow.yaml",
                """
                suite: slow
                cases:
                  - name: waits three seconds
                    steps:
                      - wait: 3s
                      - wait: 1ms
                  - name: never starts
                    steps: [{ wait: 1ms }]
                """
            )
        ])
        let clock = VirtualClock()
        let start = clock.now()
        let (result, _) = try await run.run(suites, clock: clock)
        let waited = result.suites[0].cases[0]
        #expect(waited.verdict == .error)
        #expect(waited.steps.count == 1)
        #expect(waited.steps[0].error == "timed out: the run timeout (1s) was reached while this step ran", "\(waited.steps)")
        #expect(abs(clock.now().timeIntervalSince(start) - 1) < 0.001, "the wait stopped at the deadline")
        let later = result.suites[0].cases[1]
        #expect(later.verdict == .error)
        #expect(later.steps.first?.error?.contains("the run timeout was reached before this case started") == true)
        #expect(result.exitCode == 3)
    }

    @Test("retries cut short by the run timeout are a timeout error, not a conformance failure")
    func retryCutByDeadline() async throws {
        var configuration = RunConfiguration()
        configuration.runTimeout = 10
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "retry.yaml",
                """
                suite: retry
                cases:
                  - name: waits for a status that never comes
                    steps:
                      - http: { url: "{{ mock.url }}/__paycheck/echo/never" }
                        retry: { every: 3s, for: 1m }
                        expect: { status: 599 }
                """
            )
        ])
        let clock = VirtualClock()
        let start = clock.now()
        let (result, _) = try await run.run(suites, clock: clock)
        let step = try #require(result.suites[0].cases[0].steps.first)
        #expect(step.verdict == .error)
        #expect(step.attempts == 4)
        // On a loaded machine the last attempt's exchange (given what is left of the run, 1 s) may time out too,
        // which the message then adds in parentheses.
        #expect(step.error?.hasPrefix("timed out: the run timeout (10s) ended the retries after 4 attempts") == true, "\(String(describing: step.error))")
        #expect(clock.now().timeIntervalSince(start) < 10, "no retry sleeps past the deadline")
        #expect(result.exitCode == 3)
    }

    @Test("the watchdog cancels a step that does not watch the deadline itself, on the virtual clock")
    func watchdogCancels() async throws {
        var configuration = RunConfiguration()
        configuration.jobs = 2
        configuration.runTimeout = 60
        configuration.stepTimeout = 120
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "two.yaml",
                """
                suite: two
                cases:
                  - name: stuck on a slow answer
                    steps:
                      # Through the control API rather than `mock: fault` (whose case runs alone): both cases run at once.
                      - http: { method: POST, url: "{{ mock.url }}/__paycheck/faults", json: { path: /__paycheck/echo/stuck, count: 1, kind: delay, delayMs: 60000 } }
                      - http: { url: "{{ mock.url }}/__paycheck/echo/stuck" }
                  - name: moves time past the deadline
                    steps:
                      - http: { url: "{{ mock.url }}/__paycheck/echo/tick-1" }
                      - http: { url: "{{ mock.url }}/__paycheck/echo/tick-2" }
                      - wait: 10m
                """
            )
        ])
        let began = Date()
        let (result, _) = try await run.run(suites, clock: VirtualClock())
        let stuck = result.suites[0].cases[0]
        #expect(stuck.verdict == .error)
        #expect(stuck.failingStep?.error?.hasPrefix("timed out: the run timeout (60s) was reached") == true, "\(stuck.steps.map(\.error))")
        // Without the watchdog the exchange would wait for its own timeout: 60 s of real time.
        // The bound leaves room for a starved machine (two cores, every suite at once, child processes): what it rules
        // out is waiting the whole 60 s.
        #expect(Date().timeIntervalSince(began) < 55, "nobody waited for the 60 s delay (about 0.1 s on an idle machine)")
    }

    @Test("a slow mock answer is cut at a real deadline; the reported durations are the real ones")
    func realDeadline() async throws {
        var configuration = RunConfiguration()
        // 1.5 s, not less: under a loaded test run (all suites in parallel on two cores) the case must reach its
        // slow exchange before the deadline, or the error is "not started" instead of the one this test is about.
        configuration.runTimeout = 1.5
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "delay.yaml",
                """
                suite: delay
                cases:
                  - name: waits on a 60-second answer
                    steps:
                      - mock: fault
                        with: { path: /__paycheck/echo/slow, count: 1, kind: delay, delayMs: 60000 }
                      - http: { url: "{{ mock.url }}/__paycheck/echo/slow" }
                """
            )
        ])
        let began = DispatchTime.now().uptimeNanoseconds
        let (result, _) = try await run.run(suites, clock: SystemRunnerClock())
        let wall = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        let testCase = result.suites[0].cases[0]
        #expect(testCase.verdict == .error)
        #expect(testCase.failingStep?.error?.hasPrefix("timed out: the run timeout (1.5s) was reached") == true, "\(testCase.steps.map(\.error))")
        #expect(
            wall < 55,
            "the run does not wait for the mock's 60-second answer: \(wall) s (about 1.7 s on an idle machine); case \(testCase.duration) s, steps \(testCase.steps.map(\.duration))"
        )
        #expect(result.duration <= wall && result.duration > wall - 0.5, "the run's duration is its wall time: \(result.duration) vs \(wall)")
        // The case ends at the deadline, however late a loaded machine started it: its real duration runs up to it.
        let endsAt = testCase.startedAt.timeIntervalSince(result.startedAt) + testCase.duration
        #expect(endsAt >= 1.2 && testCase.duration <= wall, "case started \(testCase.startedAt.timeIntervalSince(result.startedAt)) s in, lasted \(testCase.duration) s")
    }
}
