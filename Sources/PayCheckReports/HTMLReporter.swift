import Foundation
import PayCheckCore
package import PayCheckRunner

/// Renders a run as one self-contained HTML page (no external assets; it works offline): the verdict, the changes
/// against a baseline, failures and errors first with their locations and expected/actual values, every suite with
/// collapsible transcripts, then the provider × outcome / error-code coverage matrix. A small inline script
/// filters the cases by status and provider and by text (case names and messages), keeps the shown counts up to
/// date, and puts the filter in the URL; every case has a stable anchor (`#case-…`, from its file and name).
/// Without scripts every case is shown. A pure function of the result.
package enum HTMLReporter {
    /// The page for a run.
    package static func render(_ result: RunResult) -> String {
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
        html += environment(result)
        html += baseline(result)
        html += problems(result)
        html += findings(result)
        html += toolbar(result)
        html += suites(result)
        html += packCoverage(result)
        html += coverage(result)
        html += "</main><script>\(script)</script></body></html>\n"
        return html
    }

    /// What each merchant pack covered against the backend: the scenarios that ran, and those the contract left out.
    static func packCoverage(_ result: RunResult) -> String {
        let packs = PackCoverage.of(result)
        guard !packs.isEmpty else { return "" }
        var out = "<section id=\"packs\"><h2>Pack coverage</h2>\n<ul>\n"
        for pack in packs {
            out += "<li><b>\(h(pack.suite.displayName))</b>: \(pack.ran) of \(pack.suite.cases.count) scenarios ran"
            if !pack.leftOut.isEmpty {
                out += "; left out by the contract:<ul>"
                for left in pack.leftOut { out += "<li>\(h(left.name)) — \(h(left.reason))</li>" }
                out += "</ul>"
            }
            out += "</li>\n"
        }
        return out + "</ul></section>\n"
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
                out += "<tr class=\(hit ? "hit" : "miss")><td><code>\(h(row.key))</code></td><td>\(h(row.outcome.rawValue))</td><td>\(hit ? "✔" : "—")</td></tr>\n"
            }
            out += "</table>\n<table class=matrix><tr><th>error code</th><th>class</th><th>exercised</th></tr>\n"
            var seen = Set<String>()
            for entry in table.errorCodes where seen.insert(entry.key).inserted {
                let hit = codes.contains(entry.code)
                out += "<tr class=\(hit ? "hit" : "miss")><td><code>\(h(entry.code))</code></td><td>\(h(entry.errorClass.rawValue))</td><td>\(hit ? "✔" : "—")</td></tr>\n"
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
                out += "<article class=\(testCase.verdict.rawValue)><h3>\(testCase.verdict == .failed ? "✘" : "!") \(h(suite.displayName)) › "
                out += "<a href=\"#\(anchor(suite, testCase))\">\(h(testCase.name))</a></h3>\n"
                if let catches = testCase.catches { out += "<p class=catches>This scenario catches \(h(catches)).</p>\n" }
                if let step = testCase.failingStep {
                    out += "<p>step <b>\(h(step.name))</b> at <code>\(h(step.location.description))</code></p>\n"
                    if !step.mismatches.isEmpty {
                        out += "<table><tr><th>where</th><th>what</th><th>expected</th><th>actual</th></tr>\n"
                        for m in step.mismatches {
                            out +=
                                "<tr><td><code>\(h(m.location.description))</code></td><td>\(h(m.subject))</td><td class=exp>\(h(m.expected.text))</td><td class=act>\(h(m.actual.text))</td></tr>\n"
                        }
                        out += "</table>\n"
                    }
                    if let error = step.error { out += "<pre class=err>\(h(error))</pre>\n" }
                }
                out += evidence(testCase)
                if let output = testCase.backendOutput, !output.isEmpty {
                    out += "<details class=output><summary>the backend's output while the case ran</summary><pre>\(h(output))</pre></details>\n"
                }
                out += steps(testCase) + "</article>\n"
            }
        }
        return out.isEmpty ? "" : "<section><h2>Failures and errors</h2>\n\(out)</section>\n"
    }

    /// A merchant case's timeline: each step, then what passed between the mock and the backend meanwhile — the
    /// backend's requests with the mock's answers, the notifications with the backend's answers.
    static func evidence(_ testCase: CaseResult) -> String {
        guard testCase.steps.contains(where: { !$0.evidence.isEmpty }) else { return "" }
        var out = "<table class=evidence><tr><th>step</th><th>between the mock and the backend</th><th>sent</th><th>answer</th></tr>\n"
        for step in testCase.steps {
            out += "<tr class=step><td colspan=4><b>\(h(step.name))</b> <code>\(h(step.location.description))</code> — \(h(step.verdict.rawValue))</td></tr>\n"
            for item in step.evidence {
                let headers = item.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
                let sent = (headers.isEmpty ? "" : headers + "\n\n") + item.body
                let status = item.status.map { "\($0)" } ?? "no answer" + (item.error.map { ": \($0)" } ?? "")
                out += "<tr class=\"ev \(item.kind.rawValue)\" data-kind=\(item.kind.rawValue)><td>#\(item.sequence)</td><td>\(h(item.summary))</td>"
                out += "<td><pre>\(h(sent))</pre></td><td><b>\(h(status))</b><pre>\(h(item.answer))</pre></td></tr>\n"
            }
            for finding in step.findings {
                out += "<tr class=finding><td></td><td colspan=3>finding <code>\(h(finding.rule))</code> (\(h(finding.severity.rawValue))): \(h(finding.message))</td></tr>\n"
            }
        }
        return out + "</table>\n"
    }

    /// What the mock found wrong with the merchant's backend's requests, one row per finding.
    static func findings(_ result: RunResult) -> String {
        var rows = ""
        for suite in result.suites {
            for testCase in suite.cases {
                for finding in testCase.findings {
                    rows += "<tr class=\"finding \(finding.severity.rawValue)\"><td><code>\(h(finding.rule))</code></td><td>\(h(finding.severity.rawValue))</td>"
                    rows += "<td><a href=\"#\(anchor(suite, testCase))\">\(h(suite.displayName)) › \(h(testCase.name))</a></td><td>\(h(finding.message))</td>"
                    rows += "<td><code>\(h(finding.request))</code> #\(finding.sequence)</td><td>\(h(finding.source))</td></tr>\n"
                }
            }
        }
        guard !rows.isEmpty else { return "" }
        let gate =
            result.failOn.findingThreshold.map { _ in "They fail the run (--fail-on \(h(result.failOn.rawValue)))." }
            ?? "They do not fail the run; <code>--fail-on findings</code> makes them."
        return "<section id=findings><h2>Findings on the merchant's backend</h2><p>\(gate) <code>paycheck explain RULE</code> explains a rule.</p>\n"
            + "<table><tr><th>rule</th><th>severity</th><th>case</th><th>what</th><th>request</th><th>source</th></tr>\n\(rows)</table></section>\n"
    }

    /// Every suite with its cases; transcripts fold away.
    static func suites(_ result: RunResult) -> String {
        var out = "<section><h2>Suites</h2>\n"
        for suite in result.suites {
            var anchors = self.anchors(suite)
            let failing = suite.count(.failed) + suite.count(.error)
            out += "<details class=suite data-provider=\"\(h(suite.providerOrHTTP))\"\(failing > 0 ? " open" : "")>"
            out += "<summary class=\(failing > 0 ? "bad" : "good")><b>\(h(suite.displayName))</b> <code>\(h(suite.file))</code>"
            out += " — \(suite.count(.passed)) passed, \(suite.count(.failed)) failed, \(suite.count(.error)) errors, \(suite.count(.skipped)) skipped</summary>\n"
            if let description = suite.description, !description.isEmpty { out += "<p class=desc>\(h(description))</p>\n" }
            if !suite.tags.isEmpty { out += "<p class=tags>" + suite.tags.map { "<span class=tag>\(h($0))</span>" }.joined(separator: " ") + "</p>\n" }
            out += "<ul>\n"
            for testCase in suite.cases {
                let anchor = anchors[testCase.name]?.removeFirst() ?? ""
                let mark =
                    switch testCase.verdict {
                    case .passed: "✔"
                    case .failed: "✘"
                    case .error: "!"
                    case .skipped: "–"
                    }
                let text = ([suite.displayName, testCase.name, testCase.problemSummary] + (testCase.skipReason.map { [$0.description] } ?? []))
                    .joined(separator: " ").lowercased()
                out += "<li class=\"case \(testCase.verdict.rawValue)\" id=\"\(anchor)\" data-status=\(testCase.verdict.rawValue)"
                out += " data-provider=\"\(h(suite.providerOrHTTP))\" data-text=\"\(h(text))\">\(mark) \(h(testCase.name))"
                out += " <a class=anchor href=\"#\(anchor)\" title=\"link to this case\">#</a>"
                if testCase.verdict == .failed || testCase.verdict == .error {
                    out += " <span class=why>\(h(testCase.problemSummary))</span>"
                }
                out += " <small>\(ReportFormat.milliseconds(testCase.duration)) ms"
                if let reason = testCase.skipReason { out += " · \(h(reason.description))" }
                out += "</small>\(steps(testCase))</li>\n"
            }
            out += "</ul></details>\n"
        }
        return out + "</section>\n"
    }

    /// The stable anchor of a case: `case-` and a digest of its file, suite and name, the same in every run.
    static func anchor(_ suite: SuiteResult, _ testCase: CaseResult) -> String {
        anchors(suite)[testCase.name]?.first ?? "case-" + StableDigest.of([suite.file, suite.name, testCase.name]).prefix(16)
    }

    /// The anchors of a suite's cases by name: a name used twice in a file gets a second, numbered anchor.
    static func anchors(_ suite: SuiteResult) -> [String: [String]] {
        var anchors: [String: [String]] = [:]
        for testCase in suite.cases {
            let n = anchors[testCase.name]?.count ?? 0
            let parts = [suite.file, suite.name, testCase.name] + (n == 0 ? [] : [String(n)])
            anchors[testCase.name, default: []].append("case-" + StableDigest.of(parts).prefix(16))
        }
        return anchors
    }

    /// The filter bar: status checkboxes with the shown counts, a provider choice, a text search.
    static func toolbar(_ result: RunResult) -> String {
        let counts = result.counts
        let providers = Set(result.suites.map(\.providerOrHTTP)).sorted()
        var out = "<section id=filters><h2>Cases</h2><form class=bar onsubmit=\"return false\">\n"
        for (status, label, total) in [
            ("passed", "passed", counts.passed), ("failed", "failed", counts.failed), ("error", "errors", counts.errors),
            ("skipped", "skipped", counts.skipped),
        ] {
            out += "<label class=\(status)><input type=checkbox name=status value=\(status) checked> \(label) "
            out += "<span class=count data-count=\(status)>\(total)</span></label>\n"
        }
        out += "<label>provider <select name=provider><option value=\"\">all</option>"
        out += providers.map { "<option value=\"\(h($0))\">\(h($0))</option>" }.joined()
        out += "</select></label>\n<label>search <input type=search name=q placeholder=\"case name or message\"></label>\n"
        out += "<span>showing <b id=shown>\(counts.total)</b> of \(counts.total)</span></form></section>\n"
        return out
    }

    /// The changes against `--baseline`.
    static func baseline(_ result: RunResult) -> String {
        guard let baseline = result.baseline else { return "" }
        var out = "<section id=baseline><h2>Compared with <code>\(h(baseline.file))</code></h2>\n"
        if baseline.isEmpty { out += "<p>No case changed its verdict.</p>\n" }
        func list(_ title: String, _ items: [(CaseKey, String)]) {
            guard !items.isEmpty else { return }
            out += "<h3>\(h(title)) (\(items.count))</h3><ul>"
            out += items.map { "<li><code>\(h($0.0.file))</code> › \(h($0.0.name)) — \(h($0.1))</li>" }.joined()
            out += "</ul>\n"
        }
        list("Newly failing", baseline.newlyFailing.map { ($0.key, "\($0.before?.rawValue ?? "new") → \($0.after.rawValue)") })
        list("Newly passing", baseline.newlyPassing.map { ($0.key, "\($0.before?.rawValue ?? "new") → \($0.after.rawValue)") })
        list("New cases", baseline.added.map { ($0.key, $0.after.rawValue) })
        list("Removed cases", baseline.removed.map { ($0.key, "was \($0.before.rawValue)") })
        return out + "</section>\n"
    }

    /// Filters cases by the bar's status boxes, provider and search text; keeps counts and the URL in step.
    static let script = """
        (function(){var f=document.querySelector('#filters form');if(!f)return;
        var cases=[].slice.call(document.querySelectorAll('li.case')),suites=[].slice.call(document.querySelectorAll('details.suite'));
        function state(){var st=[].slice.call(f.querySelectorAll('input[name=status]:checked')).map(function(i){return i.value});
        return{st:st,p:f.provider.value,q:f.q.value.trim().toLowerCase()}}
        function apply(){var s=state(),shown=0,per={passed:0,failed:0,error:0,skipped:0};
        cases.forEach(function(li){var okP=!s.p||li.dataset.provider===s.p,okQ=!s.q||li.dataset.text.indexOf(s.q)>=0;
        if(okP&&okQ)per[li.dataset.status]++;var on=okP&&okQ&&s.st.indexOf(li.dataset.status)>=0;li.hidden=!on;if(on)shown++});
        suites.forEach(function(d){var any=d.querySelector('li.case:not([hidden])');d.hidden=!any;if(any&&(s.q||s.st.length<4))d.open=true});
        Object.keys(per).forEach(function(k){var e=f.querySelector('[data-count='+k+']');if(e)e.textContent=per[k]});
        document.getElementById('shown').textContent=shown;
        var h=new URLSearchParams();if(s.st.length<4)h.set('status',s.st.join(','));if(s.p)h.set('provider',s.p);if(s.q)h.set('q',s.q);
        var t=h.toString();if(location.hash.indexOf('#case-')!==0)history.replaceState(null,'',t?'#'+t:location.pathname+location.search)}
        function load(){var raw=location.hash.slice(1);if(!raw||raw.indexOf('case-')===0){var li=raw&&document.getElementById(raw);
        if(li){var d=li.closest('details');if(d)d.open=true;li.classList.add('target')}return}
        var h=new URLSearchParams(raw),st=h.get('status');if(st!==null){var want=st.split(',');
        [].slice.call(f.querySelectorAll('input[name=status]')).forEach(function(i){i.checked=want.indexOf(i.value)>=0})}
        if(h.get('provider'))f.provider.value=h.get('provider');if(h.get('q'))f.q.value=h.get('q')}
        f.addEventListener('input',apply);f.addEventListener('change',apply);load();apply()})();
        """

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
        form.bar{display:flex;flex-wrap:wrap;gap:14px;align-items:center;padding:8px 0}form.bar .count{font-weight:600}
        a.anchor{color:#8a8f98;text-decoration:none;margin-left:4px}span.why{color:#5b6169;font-size:12px}
        li.target{background:#fff6d6}[hidden]{display:none!important}
        table.evidence{width:100%}table.evidence pre{margin:0;max-height:16em}tr.step td{background:#eef1f5}
        tr.ev.notification td:nth-child(2){color:#5a3ea8}tr.finding td,tr.finding.error td{color:#b3261e}tr.finding.warning td{color:#9a6400}
        pre{word-break:break-word}ol.steps{margin:4px 0;padding-left:22px}details.step{margin:2px 0}
        details.step.failed>summary,details.step.error>summary{background:#fde8e6;color:#b3261e;font-weight:600}details.step.error>summary{background:#fff1d6;color:#9a6400}
        div.exchange{border-left:2px solid #d6dbe1;margin:6px 0;padding-left:8px}p.req,p.res,p.retry{margin:4px 0}p.retry{color:#8a5a00}li.notrun{color:#888}
        details.curl pre,details.headers pre{background:#eef1f5}p.desc{margin:4px 0 4px 18px;color:#5b6169}p.tags{margin:0 0 4px 18px}
        span.tag{background:#eef1f5;border-radius:8px;padding:0 6px;font-size:12px}#environment{margin:12px 0}#environment dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}
        #environment dd{margin:0}p.mismatch{margin:4px 0}code.exp{color:#1f7a3f}code.act{color:#b3261e}
        """
}
