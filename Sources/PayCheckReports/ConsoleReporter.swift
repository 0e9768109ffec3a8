package import Foundation
package import PayCheckCore
package import PayCheckRunner

/// Writes live progress for a terminal and renders the end-of-run summary.
///
/// Live output goes through `write`, one complete line (ending in `\n`) per call:
/// - `.started`: `Running 12 cases against mock…`
/// - `.caseFinished`, verbose only: `  ✔ name (12 ms)`, `  ✘ name`, `  ! name` (error), `  - name (reason)`
/// - `.suiteFinished`: `PASS   suites/p2p/lifecycle.yaml  Lifecycle  (3 passed, 0 failed, 0 errors, 1 skipped, 123 ms)`;
///   `SKIP` when no case of the suite ran, so a run that checked nothing never reads as passing.
/// - `.warning`: `warning: …` (also when `quiet`)
///
/// With a ``ProgressStyle`` other than `.none`, progress goes between those lines (see ``LiveProgress``): on a
/// terminal a live line rewritten in place (written without a newline), in a log a `progress:` line at most
/// every few seconds (not when `verbose`, which already prints every case).
///
/// `quiet` prints nothing live. Colours are used only when `colored` is set; the CLI decides from the TTY,
/// `NO_COLOR` and `--color`.
package struct ConsoleReporter: Sendable {
    /// Whether to emit ANSI colours.
    package var colored: Bool
    /// Whether to print one line per case as well as one per suite.
    package var verbose: Bool
    /// Whether to print nothing live (the summary is still available).
    package var quiet: Bool
    /// Receives the live output, one line at a time.
    package var write: @Sendable (String) -> Void
    /// The live progress (shared by copies of the reporter).
    private let progress: LiveProgress

    /// Creates a console reporter writing live output to `write`, with progress in `progress` style timed by `now`.
    package init(
        colored: Bool = false, verbose: Bool = false, quiet: Bool = false, progress: ProgressStyle = .none,
        now: @escaping @Sendable () -> Date = { Date() }, write: @escaping @Sendable (String) -> Void
    ) {
        self.colored = colored
        self.verbose = verbose
        self.quiet = quiet
        self.write = write
        var style = quiet ? .none : progress
        if verbose, case .log = style { style = .none }
        self.progress = LiveProgress(style: style, now: now, write: write)
    }

    private var style: ANSIStyle { ANSIStyle(enabled: colored) }

    /// Prints live progress for one runner event (nothing but warnings when `quiet`).
    package func handle(_ event: RunEvent) {
        if quiet {
            if case .warning(let message) = event { write(warningLine(message) + "\n") }
            return
        }
        var lines: [String] = []
        switch event {
        case .started(let total, let target):
            lines.append("Running \(ReportFormat.plural(total, "case")) against \(target)…\n")
        case .caseStarted, .tick:
            break
        case .caseFinished(_, let result):
            if verbose { lines.append(caseLine(result) + "\n") }
        case .suiteFinished(let suite):
            lines.append(suiteLine(suite) + "\n")
        case .warning(let message):
            lines.append(warningLine(message) + "\n")
        case .note(let message):
            lines.append(message + "\n")
        }
        progress.around(event, lines)
    }

    /// `warning: message`.
    func warningLine(_ message: String) -> String {
        "\(style.yellow("warning")): \(message)"
    }

    /// The verbose line for one finished case.
    func caseLine(_ result: CaseResult) -> String {
        switch result.verdict {
        case .passed: "  \(style.green("✔")) \(result.name) \(style.dim("(\(ReportFormat.human(result.duration)))"))"
        case .failed: "  \(style.red("✘")) \(result.name)"
        case .error: "  \(style.yellow("!")) \(result.name)"
        case .skipped: "  \(style.dim("-")) \(result.name)" + (result.skipReason.map { " " + style.dim("(\($0.description))") } ?? "")
        }
    }

    /// The line for one finished suite.
    func suiteLine(_ suite: SuiteResult) -> String {
        let (errors, failed) = (suite.count(.error), suite.count(.failed))
        let nothingRan = suite.cases.allSatisfy { $0.verdict == .skipped && $0.steps.isEmpty }
        let label =
            errors > 0
            ? style.bold(style.yellow("ERROR"))
            : failed > 0
                ? style.bold(style.red("FAIL "))
                : nothingRan ? style.bold(style.yellow("SKIP ")) : style.bold(style.green("PASS "))
        let counts =
            "\(suite.count(.passed)) passed, \(failed) failed, \(ReportFormat.plural(errors, "error")), "
            + "\(suite.count(.skipped)) skipped, \(ReportFormat.human(suite.duration))"
        return "\(label)  \(suite.file)  \(suite.displayName)  \(style.dim("(\(counts))"))"
    }

    /// The end-of-run text: each failed or errored case with its diagnostics (in run order), then the
    /// counts, the wall-clock time and what the exit code means. Ends with a newline.
    package func summary(_ result: RunResult) -> String {
        var blocks: [String] = []
        for suite in result.suites {
            for testCase in suite.cases where testCase.verdict == .failed || testCase.verdict == .error {
                blocks.append(problem(testCase, in: suite))
            }
        }
        if let findings = findingLines(result) { blocks.append(findings) }
        if let coverage = coverageLines(result) { blocks.append(coverage) }
        let packs = PackCoverage.of(result)
        if !packs.isEmpty { blocks.append(packs.map { "pack \($0.suite.displayName): \($0.summary)" }.joined(separator: "\n")) }
        let c = result.counts
        let parts = [
            colorIf(c.passed > 0, "\(c.passed) passed", style.green),
            colorIf(c.failed > 0, "\(c.failed) failed", style.red),
            colorIf(c.errors > 0, ReportFormat.plural(c.errors, "error"), style.yellow),
            colorIf(c.skipped > 0, "\(c.skipped) skipped", style.dim),
        ]
        let line = "\(ReportFormat.plural(c.total, "case")): \(parts.joined(separator: ", ")) in \(ReportFormat.seconds2(result.duration))"
        if let skipped = skippedLines(result) { blocks.append(skipped) }
        if !result.notChecked.isEmpty {
            let title =
                result.allowEmpty
                ? "not checked (allowed by --allow-empty):"
                : result.nothingRan || result.exitCode == 4
                    ? style.yellow("NOT CHECKED") + " — this run is not a conformance verdict:"
                    : style.yellow("NOT CHECKED") + " — the verdict covers only the cases that ran:"
            blocks.append(([title] + result.notChecked.map { "  - " + $0 }).joined(separator: "\n"))
        }
        if let baseline = result.baseline { blocks.append(baselineLines(baseline, gate: result.failOn)) }
        blocks.append(line + "\n" + exitMeaning(result))
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// The skipped cases grouped by their reason, one line per reason with a count, most frequent first (the reasons
    /// name the target the run used); `nil` when nothing was skipped.
    private func skippedLines(_ result: RunResult) -> String? {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for testCase in result.suites.flatMap(\.cases) where testCase.verdict == .skipped {
            let reason = testCase.skipReason?.summary ?? "skipped"
            if counts[reason] == nil { order.append(reason) }
            counts[reason, default: 0] += 1
        }
        guard !order.isEmpty else { return nil }
        let sorted = order.enumerated().sorted { (counts[$0.element]!, -$0.offset) > (counts[$1.element]!, -$1.offset) }.map(\.element)
        return (["skipped, by reason:"] + sorted.map { style.dim("  \(counts[$0]!) × \($0)") }).joined(separator: "\n")
    }

    /// What the mock found wrong with the merchant's backend's requests, case by case; `nil` without findings.
    private func findingLines(_ result: RunResult) -> String? {
        var lines: [String] = []
        var rules = Set<String>()
        for suite in result.suites {
            for testCase in suite.cases where !testCase.findings.isEmpty {
                lines.append(style.bold("\(suite.displayName) › \(testCase.name)"))
                for finding in testCase.findings {
                    let paint = finding.severity == .error ? style.red : finding.severity == .warning ? style.yellow : style.dim
                    lines.append("  " + paint("\(finding.severity.rawValue)") + " \(finding.rule): \(finding.message)")
                    lines.append("    on \(finding.request) (journal #\(finding.sequence)) · \(finding.source)")
                    rules.insert(finding.rule)
                }
            }
        }
        guard !lines.isEmpty else { return nil }
        let gate =
            result.failOn.findingThreshold.map { "gate: --fail-on \(result.failOn.rawValue) (findings of severity \($0.rawValue) or more fail the run)" }
            ?? "these do not fail the run; --fail-on findings makes them"
        let title = "findings on the merchant's backend (\(result.findings.count)):"
        let explain = "explain one: " + rules.sorted().map { "paycheck explain \($0)" }.joined(separator: " · ")
        return ([style.yellow(title)] + lines + [gate, explain]).joined(separator: "\n")
    }

    /// The changes against `--baseline`, case by case.
    private func baselineLines(_ baseline: BaselineComparison, gate: FailOn) -> String {
        var lines = ["compared with \(baseline.file):"]
        if baseline.isEmpty { lines.append("  no case changed its verdict") }
        func section(_ title: String, _ items: [String], _ paint: (String) -> String) {
            guard !items.isEmpty else { return }
            lines.append("  " + paint("\(title) (\(items.count))"))
            lines += items.map { "    " + $0 }
        }
        section("newly failing", baseline.newlyFailing.map { "\($0.key) — \($0.before?.rawValue ?? "new") → \($0.after.rawValue)" }, style.red)
        section("newly passing", baseline.newlyPassing.map { "\($0.key) — \($0.before?.rawValue ?? "new") → \($0.after.rawValue)" }, style.green)
        section("new cases", baseline.added.map { "\($0.key) — \($0.after.rawValue)" }, { $0 })
        section("removed cases", baseline.removed.map { "\($0.key) — was \($0.before.rawValue)" }, style.dim)
        if gate == .newFailures {
            lines.append("  gate: --fail-on new-failures (failures that were already failing in the baseline do not fail this run)")
        }
        return lines.joined(separator: "\n")
    }

    /// One line per provider: how many rows of its mapping table and error catalog the run exercised.
    private func coverageLines(_ result: RunResult) -> String? {
        let all = ProviderCoverage.of(result)
        let lines = all.keys.sorted().compactMap { provider -> String? in
            guard let coverage = all[provider], let table = coverage.table else { return nil }
            var line = "\(provider) coverage: \(coverage.summary)"
            let missing = table.states.map(\.key).filter { !coverage.states.contains($0) } + coverage.catalogCodes.filter { !coverage.codes.contains($0) }
            if !missing.isEmpty && verbose { line += " (not exercised: " + missing.joined(separator: ", ") + ")" }
            return line
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// The block for one failed or errored case.
    private func problem(_ testCase: CaseResult, in suite: SuiteResult) -> String {
        let failed = testCase.verdict == .failed
        let mark = failed ? style.red("✘") : style.yellow("!")
        var lines = ["\(mark) " + style.bold("\(suite.displayName) › \(testCase.name)")]
        if let catches = testCase.catches { lines.append("  this scenario catches \(catches)") }
        guard let step = testCase.failingStep else {
            lines.append(diagnosticLine(testCase.location, failed ? "case failed" : "case could not run"))
            return lines.joined(separator: "\n")
        }
        for mismatch in step.mismatches {
            lines.append(diagnosticLine(mismatch.location, mismatch.message))
            lines.append("  " + style.red("- expected: \(mismatch.expected.text)"))
            lines.append("  " + style.green("+ actual:   \(mismatch.actual.text)"))
        }
        // Why the provider refused, in its own words: what a reader needs to fix a request.
        if !step.mismatches.isEmpty, let said = step.providerError {
            lines.append("  " + style.dim("the provider said: \(said)"))
        }
        if let error = step.error {
            lines.append(diagnosticLine(step.location, error))
        } else if step.mismatches.isEmpty {
            lines.append(diagnosticLine(step.location, "step \"\(step.name)\" \(failed ? "failed" : "could not run")"))
        }
        return lines.joined(separator: "\n")
    }

    /// `file:line:col: error: message`, styled like `DiagnosticRenderer`.
    private func diagnosticLine(_ location: SourceLocation, _ message: String) -> String {
        "\(style.bold(location.description)): \(style.red("error")): \(message)"
    }

    /// `text` passed through `paint` when `condition` holds.
    private func colorIf(_ condition: Bool, _ text: String, _ paint: (String) -> String) -> String {
        condition ? paint(text) : text
    }

    /// One line explaining the exit code.
    private func exitMeaning(_ result: RunResult) -> String {
        let code = result.exitCode
        let failing = result.counts.failed + result.counts.errors
        switch code {
        case 0 where failing > 0:
            return "exit 0: no new failures (\(ReportFormat.plural(failing, "case")) failing in the baseline too, forgiven by --fail-on new-failures)"
        case 1 where result.failedOnlyByFindings:
            return "exit 1: findings on the merchant's backend (--fail-on \(result.failOn.rawValue))"
        case 4 where !result.nothingRan:
            return "exit 4: not every selected provider was checked (--require-all-providers): " + result.providersNotChecked.joined(separator: ", ")
        case _ where !result.providersNotChecked.isEmpty && !result.nothingRan:
            let checked = result.counts.total - result.counts.skipped
            return exitMeaning(code) + "; \(ReportFormat.plural(checked, "case")) checked, not checked (no credentials): "
                + result.providersNotChecked.joined(separator: ", ")
        default:
            return exitMeaning(code)
        }
    }

    /// One line explaining the exit code.
    private func exitMeaning(_ code: Int32) -> String {
        switch code {
        case 0: "exit 0: no failures or errors"
        case 1: "exit 1: conformance failures"
        case 2: "exit 2: suite or usage invalid"
        case 3: "exit 3: could not run (errors)"
        case 4: "exit 4: nothing was checked (use --allow-empty to accept that)"
        case 130: "exit 130: interrupted (the reports describe what ran before the signal)"
        default: "exit \(code)"
        }
    }

    /// Renders suite diagnostics with the offending source lines taken from `sources` (file → full text),
    /// sorted by location, followed by `N errors in M files`. Ends with a newline.
    package static func diagnostics(_ diags: [Diagnostic], sources: [String: String], colored: Bool) -> String {
        // YAML line breaks are LF, CRLF and CR; CRLF is a single Character in Swift.
        let lines: [String: [Substring]] = sources.mapValues { text in
            text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        }
        let renderer = DiagnosticRenderer(colored: colored) { file, line in
            guard let fileLines = lines[file], line >= 1, line <= fileLines.count else { return nil }
            return String(fileLines[line - 1])
        }
        let errors = diags.filter { $0.severity == .error }.count
        let warnings = diags.filter { $0.severity == .warning }.count
        let files = Set(diags.compactMap { $0.location?.file }).count
        var tally = ReportFormat.plural(errors, "error")
        if warnings > 0 { tally += " and " + ReportFormat.plural(warnings, "warning") }
        tally += " in " + ReportFormat.plural(files, "file")
        let body = renderer.render(diags)
        return (body.isEmpty ? "" : body + "\n\n") + tally + "\n"
    }
}
