import Foundation
import PayCheckCore
import PayCheckTestSupport
import Testing

@testable import PayCheckRunner

@Suite("Progress events")
struct ProgressEventTests {
    /// Two suites of one case each.
    private static let files = [
        ("a.yaml", "suite: a\ncases:\n  - name: first\n    steps: [{ wait: 1ms }]\n"),
        ("b.yaml", "suite: b\ncases:\n  - name: second\n    steps: [{ wait: 1ms }]\n  - name: skipped\n    skip: later\n    steps: [{ wait: 1ms }]\n"),
    ]

    @Test("finished suites are handed out in plan order, whichever finishes first")
    func suitesInOrder() throws {
        let suites = try InProcessRun().load(Self.files)
        let plan = RunPlan(suites: suites, configuration: RunConfiguration(), hasProviderCredentials: { _ in true })
        var tracker = Tracker(plan: plan)
        let result = { (name: String) in CaseResult(name: name, location: suites[0].location, verdict: .passed, startedAt: Date()) }
        #expect(tracker.finish(1, result("second")).isEmpty)
        #expect(tracker.finish(2, result("skipped")).isEmpty, "suite b is done but waits for suite a")
        #expect(tracker.finish(0, result("first")).map(\.name) == ["a", "b"])
    }

    @Test("ticks pace the live display in real time while a case runs, and stop with the run")
    func ticks() async throws {
        var configuration = RunConfiguration()
        configuration.progressInterval = 0.02
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "slow.yaml",
                """
                suite: slow
                cases:
                  - name: a slow answer
                    steps:
                      - mock: fault
                        with: { path: /__paycheck/echo/slow, count: 1, kind: delay, delayMs: 200 }
                      - http: { url: "{{ mock.url }}/__paycheck/echo/slow" }
                """
            )
        ])
        let (result, events) = try await run.run(suites)
        #expect(result.counts.passed == 1)
        let ticks = events.filter { if case .tick = $0 { true } else { false } }.count
        #expect(ticks >= 2, "\(ticks) ticks in 200 ms at 20 ms")
        let last = try #require(events.lastIndex { if case .caseFinished = $0 { true } else { false } })
        #expect(events[last...].filter { if case .tick = $0 { true } else { false } }.count <= 1, "the ticker stops with the run")
    }

    @Test("a case that runs is announced before it finishes; a skipped one is not")
    func caseStarted() async throws {
        let run = InProcessRun()
        let (_, events) = try await run.run(try run.load(Self.files))
        let started = events.compactMap { event -> String? in if case .caseStarted(_, let name) = event { name } else { nil } }
        #expect(Set(started) == ["first", "second"])
        let order = events.compactMap { event -> String? in
            switch event {
            case .caseStarted(_, let name): "start \(name)"
            case .caseFinished(_, let result): "end \(result.name)"
            default: nil
            }
        }
        for name in ["first", "second"] {
            #expect(try #require(order.firstIndex(of: "start \(name)")) < #require(order.firstIndex(of: "end \(name)")))
        }
    }
}
