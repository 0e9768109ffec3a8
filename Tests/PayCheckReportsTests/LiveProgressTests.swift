import Foundation
import PayCheckCore
import PayCheckRunner
import Synchronization
import Testing

@testable import PayCheckReports

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
    /// The current time.
    private let current = Mutex(Fixture.base)
    /// Reads the time.
    var now: @Sendable () -> Date { { [self] in current.withLock { $0 } } }
    /// Moves the time forward.
    func advance(_ seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Collects every write, one element per call.
private final class Writes: Sendable {
    /// The writes.
    private let items = Mutex<[String]>([])
    /// The write closure for a reporter.
    var write: @Sendable (String) -> Void { { [self] text in items.withLock { $0.append(text) } } }
    /// Every write so far.
    var all: [String] { items.withLock { $0 } }
    /// Forgets the writes so far.
    func clear() { items.withLock { $0 = [] } }
}

@Suite("Live progress")
struct LiveProgressTests {
    /// A suite stand-in named `name` in `file`.
    private static func suite(_ name: String, file: String = "s.yaml") -> Suite {
        Suite(file: file, name: name, provider: nil, description: nil, tags: [], vars: [], cases: [], location: Fixture.loc(file, 1, 1))
    }

    /// A finished case.
    private static func result(_ name: String, _ verdict: Verdict) -> CaseResult {
        CaseResult(name: name, location: Fixture.loc("s.yaml", 3, 5), verdict: verdict, startedAt: Fixture.base)
    }

    @Test("in a log, a progress line after a finished case at most every interval, on the injected clock")
    func logRateLimit() {
        let clock = ManualClock()
        let writes = Writes()
        let reporter = ConsoleReporter(progress: .log(interval: 5), now: clock.now, write: writes.write)
        let suite = Self.suite("Suite")
        reporter.handle(.started(total: 4, target: "sandbox"))
        writes.clear()
        for (index, (after, verdict)) in [(1.0, Verdict.passed), (5.0, .failed), (2.0, .passed), (3.0, .error)].enumerated() {
            clock.advance(after)
            reporter.handle(.caseStarted(suite: suite, name: "case \(index)"))
            reporter.handle(.caseFinished(suite: suite, result: Self.result("case \(index)", verdict)))
        }
        #expect(
            writes.all == [
                "progress: 2/4 cases · 1 failed · 0 errors · last: Suite › case 1 (failed)\n",
                "progress: 4/4 cases · 1 failed · 1 error · last: Suite › case 3 (error)\n",
            ])
    }

    @Test("in a log, a long case with nothing finishing is named on a tick, at most every interval")
    func logTick() {
        let clock = ManualClock()
        let writes = Writes()
        let reporter = ConsoleReporter(progress: .log(interval: 5), now: clock.now, write: writes.write)
        reporter.handle(.started(total: 2, target: "sandbox"))
        reporter.handle(.caseStarted(suite: Self.suite("Suite"), name: "long"))
        writes.clear()
        for _ in 0..<7 {
            clock.advance(1)
            reporter.handle(.tick)
        }
        #expect(writes.all == ["progress: 0/2 cases · 0 failed · 0 errors · running: Suite › long (5.00 s)\n"])
        reporter.handle(.caseFinished(suite: Self.suite("Suite"), result: Self.result("long", .passed)))
        clock.advance(5)
        reporter.handle(.tick)
        #expect(writes.all.count == 1, "nothing running: a tick says nothing")
    }

    @Test("on a terminal a tick redraws the line with the slowest case's time")
    func terminalTick() {
        let clock = ManualClock()
        let writes = Writes()
        let reporter = ConsoleReporter(progress: .terminal, now: clock.now, write: writes.write)
        reporter.handle(.started(total: 2, target: "mock"))
        reporter.handle(.caseStarted(suite: Self.suite("Suite"), name: "long"))
        clock.advance(62)
        reporter.handle(.tick)
        #expect(writes.all.last == "\r\u{1B}[2K0/2 cases · 0 failed · 0 errors · slowest: Suite › long (62.00 s)")
    }

    @Test("verbose and quiet output have no progress lines in a log")
    func logNotWhenVerboseOrQuiet() {
        for (verbose, quiet) in [(true, false), (false, true)] {
            let clock = ManualClock()
            let writes = Writes()
            let reporter = ConsoleReporter(verbose: verbose, quiet: quiet, progress: .log(interval: 0), now: clock.now, write: writes.write)
            reporter.handle(.started(total: 1, target: "mock"))
            reporter.handle(.caseFinished(suite: Self.suite("S"), result: Self.result("c", .passed)))
            #expect(!writes.all.contains { $0.hasPrefix("progress:") })
        }
    }

    @Test("on a terminal, one live line with done/total, failures and the slowest running case, erased around other lines")
    func terminalLine() {
        let clock = ManualClock()
        let writes = Writes()
        let reporter = ConsoleReporter(progress: .terminal, now: clock.now, write: writes.write)
        let (first, second) = (Self.suite("First", file: "a.yaml"), Self.suite("Second", file: "b.yaml"))
        reporter.handle(.started(total: 3, target: "mock"))
        #expect(writes.all == ["Running 3 cases against mock…\n", "\r\u{1B}[2K0/3 cases · 0 failed · 0 errors"])
        writes.clear()
        reporter.handle(.caseStarted(suite: first, name: "slow"))
        clock.advance(1)
        reporter.handle(.caseStarted(suite: second, name: "quick"))
        #expect(writes.all.last == "\r\u{1B}[2K0/3 cases · 0 failed · 0 errors · slowest: First › slow (1.00 s)")
        clock.advance(3.5)
        reporter.handle(.caseFinished(suite: second, result: Self.result("quick", .failed)))
        #expect(writes.all.last == "\r\u{1B}[2K1/3 cases · 1 failed · 0 errors · slowest: First › slow (4.50 s)")
        writes.clear()
        let suiteResult = SuiteResult(file: "b.yaml", name: "Second", provider: nil, cases: [Self.result("quick", .failed)], startedAt: Fixture.base)
        reporter.handle(.suiteFinished(suiteResult))
        #expect(writes.all.count == 3)
        #expect(writes.all[0] == "\r\u{1B}[2K", "the live line is erased before a permanent line")
        #expect(writes.all[1].hasPrefix("FAIL   b.yaml"))
        #expect(writes.all[2].hasPrefix("\r\u{1B}[2K1/3 cases"), "and drawn again after it")
        writes.clear()
        reporter.handle(.warning("secret 'pin' is too short"))
        #expect(writes.all[1] == "warning: secret 'pin' is too short\n")
        reporter.handle(.caseFinished(suite: first, result: Self.result("slow", .passed)))
        reporter.handle(.caseStarted(suite: first, name: "last"))
        writes.clear()
        reporter.handle(.caseFinished(suite: first, result: Self.result("last", .passed)))
        #expect(writes.all == ["\r\u{1B}[2K"], "after the last case the line is erased for the summary")
    }

    @Test("the terminal line is cut to its width so it never wraps")
    func terminalWidth() {
        let writes = Writes()
        let progress = LiveProgress(style: .terminal, width: 30, now: ManualClock().now, write: writes.write)
        progress.around(.started(total: 2, target: "mock"), [])
        progress.around(.caseStarted(suite: Self.suite(String(repeating: "long ", count: 20)), name: "case"), [])
        let line = writes.all.last?.replacingOccurrences(of: "\r\u{1B}[2K", with: "") ?? ""
        #expect(line.count == 30 && line.hasSuffix("…"))
    }
}
