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
