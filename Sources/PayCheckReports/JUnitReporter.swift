import PayCheckCore
package import PayCheckRunner

/// Renders a run as JUnit XML valid against Jenkins' `junit-10.xsd` and readable by GitLab, dorny/test-reporter,
/// mikepenz/action-junit-report, Jenkins, CircleCI and Azure DevOps.
///
/// The shape: a `<testsuites name="paycheck">` root (no `skipped` attribute, which `junit-10.xsd` rejects);
/// one `<testsuite>` per suite file with a non-empty `name`, counts, `time`, a UTC `timestamp` without offset,
/// `hostname`, `id`, `package` and `file`, and `<properties>`; one `<testcase>` per case with
/// `classname="<provider or http>.<suite file stem>"`, a `name` unique per `classname` in the whole report,
/// and a `<failure>`, `<error>` or `<skipped>` child plus the redacted transcript in `<system-out>`.
/// Everything is escaped; characters XML 1.0 cannot carry become U+FFFD; no CDATA is used.
package enum JUnitReporter {
    /// The most UTF-8 bytes of transcript written into one test case's `<system-out>`.
    static let transcriptLimit = 64 * 1024

    /// Renders `result` as a JUnit XML document (UTF-8 text ending with a newline).
    ///
    /// `locations: true` is the opt-in flavour (`--junit-locations`) that adds `file` and `line` to each
    /// `<testcase>` — the line of the failed expectation, else of the case — for GitLab, CircleCI and
    /// mikepenz/action-junit-report. `junit-10.xsd` has no such attributes, so that flavour is not valid against it.
    package static func render(_ result: RunResult) -> String { render(result, locations: false) }

    /// ``render(_:)`` with the choice of flavour.
    package static func render(_ result: RunResult, locations: Bool) -> String {
        let counts = result.counts
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += "<testsuites"
        out += attributes([
            ("name", "paycheck"), ("tests", String(counts.total)),
            ("failures", String(counts.failed)),
            ("errors", String(counts.errors)), ("time", ReportFormat.seconds3(result.duration)),
        ])
        out += ">\n"
        var names = UniqueNames()
        for (index, suite) in result.suites.enumerated() {
            out += renderSuite(suite, index: index, result: result, locations: locations, names: &names)
        }
        out += "</testsuites>\n"
        return out
    }

    /// One `<testsuite>` element.
    private static func renderSuite(
        _ suite: SuiteResult, index: Int, result: RunResult, locations: Bool, names: inout UniqueNames
    ) -> String {
        var out = "  <testsuite"
        out += attributes([
            ("name", suite.displayName), ("tests", String(suite.cases.count)),
            ("failures", String(suite.count(.failed))),
            ("errors", String(suite.count(.error))),
            ("skipped", String(suite.count(.skipped))), ("time", ReportFormat.seconds3(suite.duration)),
            ("timestamp", ReportFormat.timestamp(suite.startedAt)), ("hostname", result.hostname),
            ("id", String(index)), ("package", suite.providerOrHTTP), ("file", suite.file),
        ])
        out += ">\n    <properties>\n"
        let properties =
            [
                ("provider", suite.providerOrHTTP), ("target", result.target), ("targetKind", result.targetKind),
                ("version", result.version), ("suiteFile", suite.file), ("verdict", result.verdictWord),
            ] + result.notChecked.map { ("notChecked", $0) } + result.warnings.map { ("warning", $0) }
            + suite.cases.flatMap { testCase in
                testCase.findings.map { ("finding", "\($0.rule) (\($0.severity.rawValue)) in '\(testCase.name)': \($0.message) — on \($0.request) [\($0.source)]") }
            }
        for (name, value) in properties {
            out += "      <property" + attributes([("name", name), ("value", value)]) + "/>\n"
        }
        out += "    </properties>\n"
        let classname = "\(suite.providerOrHTTP).\(suite.fileStem)"
        for testCase in suite.cases {
            let name = names.claim(testCase.name.isEmpty ? "case at line \(testCase.location.line)" : testCase.name, in: classname)
            let location = locations ? testCase.reportLocation : nil
            out += renderCase(testCase, name: name, classname: classname, location: location)
        }
        out += "  </testsuite>\n"
        return out
    }

    /// One `<testcase>` element with its verdict child and transcript.
    private static func renderCase(
        _ testCase: CaseResult, name: String, classname: String, location: SourceLocation?
    ) -> String {
        var out = "    <testcase"
        var pairs = [("name", name), ("classname", classname), ("time", ReportFormat.seconds3(testCase.duration))]
        if let location { pairs += [("file", location.file), ("line", String(location.line))] }
        out += attributes(pairs)
        var children: [String] = []
        switch testCase.verdict {
        case .passed:
            break
        case .failed:
            let (type, message, body) = failure(testCase)
            children.append("<failure" + attributes([("message", message), ("type", type)]) + ">" + XMLText.text(catches(testCase) + body) + "</failure>")
        case .error:
            let (message, body) = error(testCase)
            children.append(
                "<error" + attributes([("message", message), ("type", testCase.failingStep?.issue?.junitType ?? StepIssue.unnamedJUnitType)]) + ">"
                    + XMLText.text(catches(testCase) + body) + "</error>")
        case .skipped:
            let reason = testCase.skipReason?.description ?? "skipped"
            // An xfail case that failed as expected keeps the explanation of its failure as the element's text.
            let body = testCase.failingStep != nil ? failure(testCase).body : ""
            children.append(
                "<skipped" + attributes([("message", reason)]) + (body.isEmpty ? "/>" : ">" + XMLText.text(body) + "</skipped>"))
        }
        let transcript = Transcript.render(testCase, limit: transcriptLimit)
        if !transcript.isEmpty { children.append("<system-out>" + XMLText.text(transcript) + "</system-out>") }
        if children.isEmpty { return out + "/>\n" }
        return out + ">\n" + children.map { "      \($0)\n" }.joined() + "    </testcase>\n"
    }

    /// "this scenario catches …" and a new line, when the case says what it catches.
    private static func catches(_ testCase: CaseResult) -> String {
        testCase.catches.map { "this scenario catches \($0)\n" } ?? ""
    }

    /// The failure `type` (the first mismatch's kind), `message` and text of a failed case.
    private static func failure(_ testCase: CaseResult) -> (type: String, message: String, body: String) {
        guard let step = testCase.failingStep else {
            return ("Failure", "case failed", "case \"\(testCase.name)\" (\(testCase.location)) failed")
        }
        if case .findings(let findings, _)? = step.issue, let first = findings.first {
            // The backend broke a provider rule the run gates on (`--fail-on findings`): CI shows which.
            return (step.issue?.junitType ?? StepIssue.unnamedJUnitType, shorten("finding \(first.rule): \(first.message)"), step.error ?? "")
        }
        var lines = ["step \"\(step.name)\" \(step.verdict == .error ? "could not run" : "failed") (\(step.location))"]
        lines += step.mismatches.map { "\($0.location): \($0.message)" }
        if let error = step.error { lines.append("\(step.location): \(error)") }
        guard let first = step.mismatches.first else {
            return ("Failure", shorten(step.error ?? "step \"\(step.name)\" failed"), lines.joined(separator: "\n"))
        }
        let more = step.mismatches.count > 1 ? " (and \(step.mismatches.count - 1) more)" : ""
        return (first.kind.rawValue, shorten(first.message) + more, lines.joined(separator: "\n"))
    }

    /// The error `message` and text of a case that could not run.
    private static func error(_ testCase: CaseResult) -> (message: String, body: String) {
        guard let step = testCase.failingStep else {
            return ("case could not run", "\(testCase.location): case \"\(testCase.name)\" could not run")
        }
        let message = step.error ?? step.mismatches.first?.message ?? "step \"\(step.name)\" could not run"
        var lines = ["step \"\(step.name)\" could not run", step.issue?.isDiagnostics == true ? message : "\(step.location): \(message)"]
        lines += step.mismatches.map { "\($0.location): \($0.message)" }
        return (shorten(message), lines.joined(separator: "\n"))
    }

    /// `text` on one line and at most 1,000 characters, for `message` attributes.
    private static func shorten(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 1000 ? String(line.prefix(999)) + "…" : line
    }

    /// ` a="1" b="2"`, escaped.
    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(XMLText.attribute($0.1))\"" }.joined()
    }
}

/// Hands out test case names that are unique per `classname`: GitLab keeps only the first of duplicates.
private struct UniqueNames {
    private var used: [String: Set<String>] = [:]

    /// `name`, or `name (2)`, `name (3)`… when it is already taken in `classname`.
    mutating func claim(_ name: String, in classname: String) -> String {
        var candidate = name
        var n = 1
        while used[classname, default: []].contains(candidate) {
            n += 1
            candidate = "\(name) (\(n))"
        }
        used[classname, default: []].insert(candidate)
        return candidate
    }
}
