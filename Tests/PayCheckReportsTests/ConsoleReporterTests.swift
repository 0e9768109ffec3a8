import Foundation
import PayCheckCore
import PayCheckRunner
import Testing

@testable import PayCheckReports

/// Collects what a reporter writes. `@unchecked Sendable`: `lines` is only touched under `lock`.
private final class Sink: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// The write closure to hand to a reporter.
    var write: @Sendable (String) -> Void { { [self] text in lock.withLock { lines.append(text) } } }
    /// Everything written so far, concatenated.
    var text: String { lock.withLock { lines.joined() } }
}

/// Makes ANSI escapes visible in snapshots.
private func visible(_ text: String) -> String { text.replacingOccurrences(of: "\u{1B}", with: "⎋") }

@Suite("Console reporter")
struct ConsoleReporterTests {
    /// Feeds the fixture's events to a reporter and returns what it wrote.
    private func live(colored: Bool = false, verbose: Bool = false, quiet: Bool = false) -> String {
        let sink = Sink()
        let reporter = ConsoleReporter(colored: colored, verbose: verbose, quiet: quiet, write: sink.write)
        Fixture.events().forEach(reporter.handle)
        return sink.text
    }

    @Test("live output prints only suite lines by default")
    func liveDefault() {
        assertSnapshot(live(), named: "console-live", ext: "txt")
    }

    @Test("live output prints case lines too when verbose")
    func liveVerbose() {
        assertSnapshot(live(verbose: true), named: "console-live-verbose", ext: "txt")
    }

    @Test("live output in colour")
    func liveColored() {
        assertSnapshot(visible(live(colored: true, verbose: true)), named: "console-live-colored", ext: "txt")
    }

    @Test("quiet prints nothing live")
    func quiet() {
        #expect(live(verbose: true, quiet: true).isEmpty)
    }

    @Test("the summary lists failures with diffs, then the counts and the exit code")
    func summary() {
        let reporter = ConsoleReporter(write: { _ in })
        assertSnapshot(reporter.summary(Fixture.run()), named: "console-summary", ext: "txt")
    }

    @Test("a failed expectation on a provider's answer shows the provider's own error under it")
    func providerError() throws {
        var result = Fixture.run()
        let failed = try #require(
            result.suites.indices.lazy.flatMap { s in result.suites[s].cases.indices.map { (s, $0) } }.first { s, c in
                result.suites[s].cases[c].failingStep?.mismatches.isEmpty == false
            })
        let step = try #require(result.suites[failed.0].cases[failed.1].steps.firstIndex { !$0.mismatches.isEmpty })
        let without = ConsoleReporter(write: { _ in }).summary(result)
        #expect(!without.contains("the provider said"))
        result.suites[failed.0].cases[failed.1].steps[step].providerError = "BR: The payment.reference field is required"
        let text = ConsoleReporter(write: { _ in }).summary(result)
        #expect(text.contains("  the provider said: BR: The payment.reference field is required"), "\(text)")
    }

    @Test("the summary in colour")
    func summaryColored() {
        let text = ConsoleReporter(colored: true, write: { _ in }).summary(Fixture.run())
        assertSnapshot(visible(text), named: "console-summary-colored", ext: "txt")
    }

    @Test("no escapes without colour")
    func plainHasNoEscapes() {
        let text = ConsoleReporter(write: { _ in }).summary(Fixture.run()) + live(verbose: true)
        #expect(!text.contains("\u{1B}"))
    }

    @Test("a clean run says so")
    func cleanSummary() {
        let passed = CaseResult(name: "ok", location: Fixture.loc("a.yaml", 2, 3), verdict: .passed, duration: 1, startedAt: Fixture.base)
        let run = RunResult(
            suites: [SuiteResult(file: "a.yaml", name: "A", provider: nil, cases: [passed], startedAt: Fixture.base)],
            target: "mock", targetKind: "mock", version: "1", hostname: "h", startedAt: Fixture.base, duration: 2.005)
        #expect(ConsoleReporter(write: { _ in }).summary(run) == "1 case: 1 passed, 0 failed, 0 errors, 0 skipped in 2.01 s\nexit 0: no failures or errors\n")
    }

    @Test("suite diagnostics quote the source line and end with a tally")
    func diagnostics() {
        let file = "suites/p2p/bad.yaml"
        let source = "suite: Bad\ncases:\n  - name: one\n    stepz:\n      - GET: /x\n    expect:\r\n      status: two\n"
        let diags = [
            Diagnostic(at: Fixture.loc(file, 7, 15), "status 'two' is not a number"),
            Diagnostic(at: Fixture.loc(file, 4, 5), "unknown key 'stepz'", hint: "did you mean 'steps'?"),
            Diagnostic(.warning, at: Fixture.loc("suites/other.yaml", 1, 1), "suite 'Other' has no cases"),
        ]
        let text = ConsoleReporter.diagnostics(diags, sources: [file: source], colored: false)
        assertSnapshot(text, named: "console-diagnostics", ext: "txt")
        #expect(ConsoleReporter.diagnostics([], sources: [:], colored: false) == "0 errors in 0 files\n")
    }
}
