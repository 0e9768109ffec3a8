import PayCheckRunner
import PayCheckCore

/// The readable, already-redacted transcript of a case's steps and HTTP exchanges, as written into
/// JUnit `<system-out>`.
///
/// ```
/// step 1: create session (suites/p2p/lifecycle.yaml:12:7): passed, 1 attempt, 85 ms
/// > POST https://checkout.example/api/session
/// > content-type: application/json
///
/// {"amount":1000}
///
/// < 200 (80 ms)
/// < content-type: application/json
///
/// {"status":"OK"}
/// ```
enum Transcript {
    /// The default cap per case, in UTF-8 bytes.
    static let defaultLimit = 64 * 1024

    /// The transcript of every step of `testCase`, cut at `limit` UTF-8 bytes; empty when no step ran.
    static func render(_ testCase: CaseResult, limit: Int = defaultLimit) -> String {
        var lines: [String] = []
        for (index, step) in testCase.steps.enumerated() {
            if index > 0 { lines.append("") }
            lines.append(contentsOf: stepLines(step, number: index + 1))
        }
        if let output = testCase.backendOutput, !output.isEmpty {
            lines += ["", "the backend's output while the case ran:", output]
        }
        return cap(lines.joined(separator: "\n"), limit: limit)
    }

    /// The lines for one step: its heading, observed outcome, error, and each exchange.
    private static func stepLines(_ step: StepResult, number: Int) -> [String] {
        var lines = [
            "step \(number): \(step.name) (\(step.location)): \(step.verdict.rawValue), "
                + "\(ReportFormat.plural(step.attempts, "attempt")), \(ReportFormat.human(step.duration))"
        ]
        if let outcome = step.outcome {
            lines.append("outcome: \(outcome.rawValue)" + (step.nativeState.map { " (native state \($0))" } ?? ""))
        } else if let native = step.nativeState {
            lines.append("native state: \(native)")
        }
        if let code = step.errorCode {
            lines.append("error code: class=\(code.errorClass.rawValue) code=\(code.code)")
        }
        // A gated finding's message is its findings, which follow once below.
        if let error = step.error, !step.isGatedFinding { lines.append(step.issue?.isDiagnostics == true ? error : "error: \(error)") }
        for exchange in step.exchanges {
            lines.append("")
            lines.append(contentsOf: exchangeLines(exchange))
        }
        for evidence in step.evidence {
            lines.append("")
            lines.append(contentsOf: evidenceLines(evidence))
        }
        for finding in step.findings {
            lines.append("finding \(finding.rule) (\(finding.severity.rawValue)): \(finding.message) — on \(finding.request) [\(finding.source)]")
        }
        return lines
    }

    /// What passed between the mock and the merchant's backend: `» backend → mock` or `« mock → backend`.
    static func evidenceLines(_ evidence: Evidence) -> [String] {
        let arrow = evidence.kind == .request ? "»" : "«"
        var lines = ["\(arrow) \(evidence.summary) at \(evidence.at)"]
        lines += evidence.headers.map { "\(arrow) \($0.name): \($0.value)" }
        if !evidence.body.isEmpty { lines += ["", evidence.body] }
        if !evidence.answer.isEmpty { lines += ["", "answer:", evidence.answer] }
        return lines
    }

    /// The request and response of one exchange, curl-style.
    private static func exchangeLines(_ exchange: Exchange) -> [String] {
        var lines = exchange.retries.map { "↻ \($0)" }
        lines.append("> \(exchange.method) \(exchange.url)")
        lines += exchange.requestHeaders.map { "> \($0.name): \($0.value)" }
        if !exchange.requestBody.isEmpty { lines += ["", exchange.requestBody] }
        lines.append("")
        if let status = exchange.status {
            lines.append("< \(status) (\(ReportFormat.human(exchange.duration)))")
            lines += exchange.responseHeaders.map { "< \($0.name): \($0.value)" }
            if !exchange.responseBody.isEmpty { lines += ["", exchange.responseBody] }
            if let read = exchange.readBody { lines += ["", "read as:", read] }
        } else {
            lines.append("< no response after \(ReportFormat.human(exchange.duration))")
        }
        if let error = exchange.error { lines.append("! \(error)") }
        return lines
    }

    /// `text` cut to at most `limit` UTF-8 bytes on a character boundary, with a note saying how much was left out.
    static func cap(_ text: String, limit: Int) -> String {
        let total = text.utf8.count
        guard total > limit else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            if kept + size > limit { break }
            kept += size
            end = text.index(after: index)
        }
        return String(text[..<end]) + "\n… transcript cut at \(limit) bytes (\(total - kept) bytes left out)"
    }
}
