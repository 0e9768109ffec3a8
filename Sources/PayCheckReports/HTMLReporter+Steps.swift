import Foundation
import PayCheckCore
import PayCheckRunner

extension HTMLReporter {
    /// The most of one body the page shows (the rest is cut with a note), so one huge answer cannot swell the report.
    static let bodyLimit = 32 * 1024

    /// A case's steps, each folded on its own: the failing step opened and marked, every exchange with its headers,
    /// its body pretty-printed when it is JSON, and the request as a `curl` command (already redacted, like
    /// everything in the reports). Then what passed between the mock and a merchant's backend, and the backend's
    /// output. The whole list is open for a failing case.
    static func steps(_ testCase: CaseResult) -> String {
        guard !testCase.steps.isEmpty else { return "" }
        let failing = testCase.verdict == .failed || testCase.verdict == .error
        var out = "<details class=tx\(failing ? " open" : "")><summary>\(ReportFormat.plural(testCase.steps.count, "step"))</summary><ol class=steps>\n"
        let failingIndex = testCase.steps.firstIndex { $0.verdict == .failed || $0.verdict == .error }
        for (index, step) in testCase.steps.enumerated() {
            let isFailing = index == failingIndex
            out += "<li><details class=\"step \(step.verdict.rawValue)\"\(isFailing ? " open" : "")><summary>"
            out += "\(h(step.name)) <small>\(step.verdict.rawValue) · \(h(ReportFormat.human(step.duration)))"
            if step.attempts > 1 { out += " · \(step.attempts) attempts" }
            out += " · <code>\(h(step.location.description))</code></small></summary>\n"
            if let outcome = step.outcome {
                out += "<p>outcome <b>\(h(outcome.rawValue))</b>\(step.nativeState.map { " (native state <code>\(h($0))</code>)" } ?? "")</p>\n"
            }
            for mismatch in step.mismatches {
                out +=
                    "<p class=mismatch>\(h(mismatch.subject)): expected <code class=exp>\(h(mismatch.expected.text))</code>, got <code class=act>\(h(mismatch.actual.text))</code></p>\n"
            }
            if let error = step.error, step.mismatches.isEmpty { out += "<pre class=err>\(h(error))</pre>\n" }
            for exchange in step.exchanges { out += self.exchange(exchange) }
            if !step.evidence.isEmpty {
                let lines = step.evidence.flatMap { Transcript.evidenceLines($0) + [""] }
                out += "<details class=ev><summary>between the mock and the backend</summary><pre>\(h(self.cut(lines.joined(separator: "\n"))))</pre></details>\n"
            }
            out += "</details></li>\n"
        }
        // The steps after the one that did not pass: listed, so the report shows the whole case.
        for name in testCase.notRun { out += "<li class=notrun><span class=\"step skipped\">\(h(name)) <small>not run</small></span></li>\n" }
        out += "</ol>"
        if let output = testCase.backendOutput, !output.isEmpty, !failing {
            out += "<details class=output><summary>the backend's output</summary><pre>\(h(self.cut(output)))</pre></details>"
        }
        return out + "</details>"
    }

    /// One request and its answer.
    static func exchange(_ exchange: Exchange) -> String {
        var out = "<div class=exchange>"
        for retry in exchange.retries { out += "<p class=retry>↻ \(h(retry))</p>\n" }
        out += "<p class=req>→ <b>\(h(exchange.method))</b> <code>\(h(exchange.url))</code></p>\n"
        out += self.headers(exchange.requestHeaders)
        if !exchange.requestBody.isEmpty { out += "<pre class=body>\(h(self.pretty(exchange.requestBody)))</pre>\n" }
        if let status = exchange.status {
            out += "<p class=res>← <b>\(status)</b> <small>\(h(ReportFormat.human(exchange.duration)))</small></p>\n"
            out += self.headers(exchange.responseHeaders)
            if !exchange.responseBody.isEmpty { out += "<pre class=body>\(h(self.pretty(exchange.responseBody)))</pre>\n" }
        } else {
            out += "<p class=res>← no answer after \(h(ReportFormat.human(exchange.duration)))</p>\n"
        }
        if let error = exchange.error { out += "<pre class=err>\(h(error))</pre>\n" }
        out += "<details class=curl><summary>copy as curl</summary><pre>\(h(self.curl(exchange)))</pre></details></div>\n"
        return out
    }

    /// Headers as a small folded list.
    static func headers(_ headers: [(name: String, value: String)]) -> String {
        guard !headers.isEmpty else { return "" }
        let lines = headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        return "<details class=headers><summary>\(headers.count) headers</summary><pre>\(h(lines))</pre></details>\n"
    }

    /// `body` pretty-printed when it is JSON, as it came otherwise; cut at ``bodyLimit``.
    static func pretty(_ body: String) -> String {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("["), let value = JSONText.parse(trimmed) {
            return self.cut(JSONText.encode(value, pretty: true))
        }
        return self.cut(body)
    }

    /// `text` cut at ``bodyLimit`` bytes with a note.
    static func cut(_ text: String) -> String {
        Transcript.cap(text, limit: self.bodyLimit)
    }

    /// The request as a `curl` command line, each part single-quoted for a POSIX shell.
    static func curl(_ exchange: Exchange) -> String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var parts = ["curl", "-X", exchange.method, quoted(exchange.url)]
        for header in exchange.requestHeaders where header.name.lowercased() != "content-length" {
            parts += ["-H", quoted("\(header.name): \(header.value)")]
        }
        if !exchange.requestBody.isEmpty { parts += ["--data-binary", quoted(exchange.requestBody)] }
        return parts.joined(separator: " ")
    }

    /// Where the run happened: target, run id, shard, the suites' digest, the tool and the machine, and the commit
    /// and CI job when the run knew them.
    static func environment(_ result: RunResult) -> String {
        var rows: [(String, String)] = [
            ("target", "\(result.target) (\(result.targetKind))"), ("paycheck", result.version), ("host", result.hostname),
            ("started", ReportFormat.iso8601(result.startedAt)),
        ]
        if !result.runId.isEmpty { rows.append(("run id", result.runId)) }
        if let shard = result.shard { rows.append(("shard", "\(shard.index) of \(shard.count)")) }
        if !result.suiteDigest.isEmpty { rows.append(("suites digest", result.suiteDigest)) }
        if result.mergedFrom > 0 { rows.append(("merged from", "\(result.mergedFrom) shard reports")) }
        rows += result.context.map { ($0.label, $0.value) }
        var out = "<details id=environment><summary>Environment</summary><dl>"
        for (label, value) in rows {
            let shown = value.hasPrefix("https://") || value.hasPrefix("http://") ? "<a href=\"\(h(value))\">\(h(value))</a>" : "<code>\(h(value))</code>"
            out += "<dt>\(h(label))</dt><dd>\(shown)</dd>"
        }
        return out + "</dl></details>\n"
    }
}
