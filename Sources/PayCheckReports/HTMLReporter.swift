import Foundation
import PayCheckRunner

/// Renders a run as one self-contained HTML page (no scripts, no external assets): the verdict, the
/// provider × outcome / error-code coverage matrix, failures and errors first with their locations and
/// expected/actual values, then every suite with collapsible transcripts. A pure function of the result.
public enum HTMLReporter {
    /// The page for a run.
    public static func render(_ result: RunResult) -> String {
        let counts = result.counts
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>PayCheck · \(h(result.verdictWord)) · \(counts.total) cases</title>
            <style>\(style)</style></head><body>
            <header class="\(verdictClass(result))"><h1>PayCheck — \(h(result.verdictWord))</h1>
            <p>\(counts.total) cases: \(counts.passed) passed, \(counts.failed) failed, \(counts.errors) errors, \(counts.skipped) skipped
            · target <code>\(h(result.target))</code> · \(h(ReportFormat.seconds2(result.duration))) · \(h(ReportFormat.iso8601(result.startedAt)))
            · paycheck \(h(result.version)) on \(h(result.hostname)) · exit \(result.exitCode)</p>\(notChecked(result))\(warnings(result))</header>
            <main>

            """
        html += coverage(result)
        html += problems(result)
        html += suites(result)
        html += "</main></body></html>\n"
        return html
    }

    /// The provider × outcome and provider × error-code matrices, from the mapping tables.
    static func coverage(_ result: RunResult) -> String {
        let all = ProviderCoverage.of(result)
        guard !all.isEmpty else { return "" }
        var out = "<section><h2>Coverage</h2>\n"
        for provider in all.keys.sorted() {
            guard let coverage = all[provider], let table = coverage.table else { continue }
            let states = coverage.states, codes = coverage.codes
            out += "<h3>\(h(provider)) — \(h(coverage.summary))</h3>\n"
            out += "<table class=matrix><tr><th>native state</th><th>outcome</th><th>exercised</th></tr>\n"
            for row in table.states {
                let hit = states.contains(row.key)
                out += "<tr class=\(hit ? "hit" : "miss")><td><code>\(h(row.key))</code></td><td>\(h(row.outcome))</td><td>\(hit ? "✔" : "—")</td></tr>\n"
            }
            out += "</table>\n<table class=matrix><tr><th>error code</th><th>class</th><th>exercised</th></tr>\n"
            var seen = Set<String>()
            for entry in table.errorCodes where seen.insert("\(entry.code)/\(entry.errorClass)").inserted {
                let hit = codes.contains(entry.code)
                out += "<tr class=\(hit ? "hit" : "miss")><td><code>\(h(entry.code))</code></td><td>\(h(entry.errorClass))</td><td>\(hit ? "✔" : "—")</td></tr>\n"
            }
            out += "</table>\n"
        }
        return out + "</section>\n"
    }

    /// Failed and errored cases, first, with each mismatch as location, expected and actual.
    static func problems(_ result: RunResult) -> String {
        var out = ""
        for suite in result.suites {
            for testCase in suite.cases where testCase.verdict == .failed || testCase.verdict == .error {
                out += "<article class=\(testCase.verdict.rawValue)><h3>\(testCase.verdict == .failed ? "✘" : "!") \(h(suite.displayName)) › \(h(testCase.name))</h3>\n"
                if let step = testCase.failingStep {
                    out += "<p>step <b>\(h(step.name))</b> at <code>\(h(step.location.description))</code></p>\n"
                    if !step.mismatches.isEmpty {
                        out += "<table><tr><th>where</th><th>what</th><th>expected</th><th>actual</th></tr>\n"
                        for m in step.mismatches {
                            out += "<tr><td><code>\(h(m.location.description))</code></td><td>\(h(m.subject))</td><td class=exp>\(h(m.expected))</td><td class=act>\(h(m.actual))</td></tr>\n"
                        }
                        out += "</table>\n"
                    }
                    if let error = step.error { out += "<pre class=err>\(h(error))</pre>\n" }
                }
                out += transcript(testCase) + "</article>\n"
            }
        }
        return out.isEmpty ? "" : "<section><h2>Failures and errors</h2>\n\(out)</section>\n"
    }

    /// Every suite with its cases; transcripts fold away.
    static func suites(_ result: RunResult) -> String {
        var out = "<section><h2>Suites</h2>\n"
        for suite in result.suites {
            let failing = suite.count(.failed) + suite.count(.error)
            out += "<details\(failing > 0 ? " open" : "")><summary class=\(failing > 0 ? "bad" : "good")><b>\(h(suite.displayName))</b> <code>\(h(suite.file))</code>"
            out += " — \(suite.count(.passed)) passed, \(suite.count(.failed)) failed, \(suite.count(.error)) errors, \(suite.count(.skipped)) skipped</summary>\n<ul>\n"
            for testCase in suite.cases {
                let mark = switch testCase.verdict {
                case .passed: "✔"
                case .failed: "✘"
                case .error: "!"
                case .skipped: "–"
                }
                out += "<li class=\(testCase.verdict.rawValue)>\(mark) \(h(testCase.name)) <small>\(ReportFormat.milliseconds(testCase.duration)) ms"
                if let reason = testCase.skipReason { out += " · \(h(reason))" }
                out += "</small>\(transcript(testCase))</li>\n"
            }
            out += "</ul></details>\n"
        }
        return out + "</section>\n"
    }

    /// The case's redacted transcript, folded.
    static func transcript(_ testCase: CaseResult) -> String {
        guard !testCase.steps.isEmpty else { return "" }
        return "<details class=tx><summary>transcript</summary><pre>\(h(Transcript.render(testCase)))</pre></details>"
    }

    /// The header class: green only for a run that checked everything it selected and passed.
    static func verdictClass(_ result: RunResult) -> String {
        if result.exitCode == 0 && result.notChecked.isEmpty { return "good" }
        return result.exitCode == 1 ? "bad" : "warn"
    }

    /// The run's warnings (e.g. a secret too short to redact), as a list under the verdict.
    static func warnings(_ result: RunResult) -> String {
        guard !result.warnings.isEmpty else { return "" }
        return "<p><strong>Warnings:</strong></p><ul>" + result.warnings.map { "<li>\(h($0))</li>" }.joined() + "</ul>"
    }

    /// Why the run checked less than it selected, as a list under the verdict.
    static func notChecked(_ result: RunResult) -> String {
        guard !result.notChecked.isEmpty else { return "" }
        return "<p><strong>Not checked:</strong></p><ul>" + result.notChecked.map { "<li>\(h($0))</li>" }.joined() + "</ul>"
    }

    /// HTML-escapes text (and replaces characters HTML cannot carry).
    /// (One pass over the bytes: Foundation's `replacingOccurrences` here was a fifth of a 10,000-case run.)
    static func h(_ s: String) -> String { XMLText.html(s) }

    static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d232a}main{padding:0 24px 48px}
        header{padding:16px 24px;color:#fff}header.good{background:#1f7a3f}header.bad{background:#b3261e}header.warn{background:#9a6400}
        h1{margin:0 0 4px;font-size:22px}h2{margin-top:28px;border-bottom:1px solid #ddd}code,pre{font:12px ui-monospace,monospace}
        pre{background:#f6f7f9;padding:8px;overflow:auto;white-space:pre-wrap}table{border-collapse:collapse;margin:8px 0}
        td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}.matrix{display:inline-table;margin-right:24px}
        tr.hit td:last-child{color:#1f7a3f}tr.miss{color:#8a8f98}td.exp{color:#1f7a3f}td.act{color:#b3261e}
        article{border-left:4px solid #b3261e;padding:4px 12px;margin:12px 0}article.error{border-color:#9a6400}pre.err{color:#9a6400}
        summary.bad{color:#b3261e}summary.good{color:#1f7a3f}li{margin:2px 0}li.failed{color:#b3261e}li.error{color:#9a6400}
        li.skipped{color:#8a8f98}details.tx{display:inline;margin-left:6px}details.tx pre{color:#1d232a}
        """
}
