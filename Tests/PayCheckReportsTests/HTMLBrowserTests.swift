import Foundation
import PayCheckCore
import PayCheckReports
import PayCheckRunner
import Testing

/// The HTML report in a real browser: headless Chromium (Debian's `chromium`) runs the page's script and dumps the
/// resulting DOM. Skipped when Chromium is not installed, unless `PAYCHECK_REQUIRE_CHROMIUM=1` (as `.ci/run` sets),
/// which turns a missing browser into a failure.
@Suite("HTML report in headless Chromium")
struct HTMLBrowserTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let required = ProcessInfo.processInfo.environment["PAYCHECK_REQUIRE_CHROMIUM"] == "1"

    /// The DOM of `html` after its script ran, opened at `fragment`. Chromium runs on a thread of its own: waiting for
    /// it must not hold a thread of the concurrency pool other tests need.
    static func dom(_ html: String, fragment: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try domNow(html, fragment: fragment) }) }
        }
    }

    static func domNow(_ html: String, fragment: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(chromium))
        process.arguments = [
            // The virtual time budget makes Chromium dump the DOM only after the page's script has run, however loaded
            // the machine is.
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/profile",
            "--virtual-time-budget=10000", "--dump-dom",
            page.absoluteString + fragment,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The `<li class="case …">` opening tags of `dom`.
    static func cases(_ dom: String) -> [String] {
        dom.components(separatedBy: "<li class=\"case ").dropFirst().map { String($0.prefix { $0 != ">" }) }
    }

    /// The count shown next to a status box.
    static func shownCount(_ dom: String, _ status: String) -> Int? {
        guard let range = dom.range(of: "data-count=\"\(status)\">") else { return nil }
        return Int(dom[range.upperBound...].prefix { $0.isNumber })
    }

    @Test(
        "the counts shown match the JSON report, and filtering to failed shows only the failed cases",
        .enabled(if: chromium != nil || required, "Chromium is not installed (apt-get install chromium)"))
    func filters() async throws {
        guard Self.chromium != nil else {
            Issue.record("PAYCHECK_REQUIRE_CHROMIUM=1 but no Chromium was found")
            return
        }
        let result = Fixture.run()
        let json = JSONReporter.value(result)
        let html = HTMLReporter.render(result)

        let all = try await Self.dom(html, fragment: "")
        let counts = try #require(json["counts"]?.objectValue)
        for (status, key) in [("passed", "passed"), ("failed", "failed"), ("error", "errors"), ("skipped", "skipped")] {
            #expect(Self.shownCount(all, status) == counts[key]?.intValue, "\(status)")
        }
        #expect(Self.cases(all).count == counts["total"]?.intValue)
        #expect(Self.cases(all).allSatisfy { !$0.contains("hidden") })

        let failed = try await Self.dom(html, fragment: "#status=failed")
        let shown = Self.cases(failed).filter { !$0.contains("hidden") }
        #expect(shown.count == counts["failed"]?.intValue)
        #expect(!shown.isEmpty && shown.allSatisfy { $0.contains("data-status=\"failed\"") })
        #expect(failed.contains("<b id=\"shown\">\(shown.count)</b>"))

        // The provider filter shows that provider's cases only, and the status counts follow it.
        let ptp = result.suites.filter { $0.provider == "placetopay" }.flatMap(\.cases)
        #expect(!ptp.isEmpty && ptp.count < result.counts.total, "the fixture mixes providers")
        let byProvider = try await Self.dom(html, fragment: "#provider=placetopay")
        let shownByProvider = Self.cases(byProvider).filter { !$0.contains("hidden") }
        #expect(shownByProvider.count == ptp.count)
        #expect(shownByProvider.allSatisfy { $0.contains("data-provider=\"placetopay\"") })
        #expect(byProvider.contains("<b id=\"shown\">\(ptp.count)</b>"))
        #expect(Self.shownCount(byProvider, "failed") == ptp.filter { $0.verdict == .failed }.count)
        #expect(Self.shownCount(byProvider, "passed") == ptp.filter { $0.verdict == .passed }.count)

        // A search narrows further; a stable anchor opens its case.
        let searched = try await Self.dom(html, fragment: "#q=no-such-case-text")
        #expect(Self.cases(searched).allSatisfy { $0.contains("hidden") })
        let anchor = try #require(Self.cases(all).first?.components(separatedBy: "id=\"").dropFirst().first?.prefix { $0 != "\"" })
        let linked = try await Self.dom(html, fragment: "#\(anchor)")
        #expect(linked.contains("id=\"\(anchor)\"") && Self.cases(linked).first { $0.contains(String(anchor)) }?.contains("target") == true)
    }

    /// A run with one failing merchant case: a forged notification the backend accepted.
    static func merchantRun() -> RunResult {
        let at = SourceLocation(file: "Packs/placetopay/checkout.yaml", line: 40, column: 9)
        var forge = StepResult(name: "mock forge", location: at)
        forge.evidence = [
            Evidence(
                kind: .notification, sequence: 7, provider: "placetopay", method: "POST", target: "http://127.0.0.1:8099/webhooks/placetopay",
                headers: [("Content-Type", "application/json")], body: #"{"requestId":1,"status":{"status":"APPROVED"},"signature":"forged"}"#,
                status: 200, answer: #"{"accepted":"without checking the signature"}"#, attempt: 1, at: "2026-01-15T10:00:01Z"),
            Evidence(
                kind: .request, sequence: 8, method: "POST", target: "/placetopay/api/session/1", headers: [], body: "{}", status: 200,
                answer: #"{"status":{"status":"PENDING"}}"#, at: "2026-01-15T10:00:01Z"),
        ]
        forge.findings = [
            Finding(
                rule: "placetopay.sha1-trankey", severity: .warning, message: "tranKey was computed with SHA-1", request: "POST /placetopay/api/session/1",
                sequence: 8, source: "providers.md §1.2")
        ]
        let order = StepResult(
            name: "merchant order", location: at,
            issue: .mismatches([Mismatch(location: at, subject: "outcome", expected: .words("eq pending"), actual: .words("succeeded"), kind: .outcome)]))
        var failing = CaseResult(
            name: "a notification with a forged signature is ignored", location: at, verdict: .failed, steps: [forge, order],
            startedAt: Date(timeIntervalSince1970: 1_768_471_200))
        failing.backendOutput = "POST /webhooks/placetopay 200\n"
        let suite = SuiteResult(
            file: "Packs/placetopay/checkout.yaml", name: "PlacetoPay · the merchant's backend", provider: "placetopay", cases: [failing],
            startedAt: failing.startedAt)
        return RunResult(
            suites: [suite], target: "mock", targetKind: "mock", version: "test", hostname: "test-host", startedAt: failing.startedAt, duration: 1)
    }

    @Test(
        "a failing merchant case shows, unfolded, the notification the mock sent and the backend's answer, and the findings",
        .enabled(if: chromium != nil || required, "Chromium is not installed (apt-get install chromium)"))
    func merchantEvidence() async throws {
        guard Self.chromium != nil else {
            Issue.record("PAYCHECK_REQUIRE_CHROMIUM=1 but no Chromium was found")
            return
        }
        let dom = try await Self.dom(HTMLReporter.render(Self.merchantRun()), fragment: "")
        let article = try #require(dom.components(separatedBy: "<article class=\"failed\">").dropFirst().first?.components(separatedBy: "</article>").first)
        let evidence = try #require(article.components(separatedBy: "<table class=\"evidence\">").dropFirst().first?.components(separatedBy: "</table>").first)
        // Outside any <details>: the reader sees it without unfolding anything.
        #expect(!article.components(separatedBy: "<table class=\"evidence\">")[0].contains("<details"))
        #expect(evidence.contains("mock → backend: placetopay notification, attempt 1, POST http://127.0.0.1:8099/webhooks/placetopay → 200"))
        #expect(evidence.contains("&quot;signature&quot;:&quot;forged&quot;") || evidence.contains("\"signature\":\"forged\""), "\(evidence.prefix(1500))")
        #expect(evidence.contains("without checking the signature"))
        #expect(evidence.contains("backend → mock: POST /placetopay/api/session/1 → 200"))
        #expect(evidence.contains("placetopay.sha1-trankey"))
        #expect(dom.contains("<section id=\"findings\">"))
        #expect(article.contains("the backend's output while the case ran"))
    }

    /// A run with one failing case of two steps: the second's answer did not match.
    static func stepsRun() -> RunResult {
        let at = SourceLocation(file: "Suites/mollie/payments.yaml", line: 12, column: 7)
        let create = Exchange(
            method: "POST", url: "http://127.0.0.1:8080/mollie/v2/payments",
            requestHeaders: [("Authorization", "Bearer [redacted]"), ("Content-Type", "application/json")],
            requestBody: #"{"amount":{"currency":"EUR","value":"10.00"},"description":"it's an order"}"#, status: 201,
            responseHeaders: [("Content-Type", "application/hal+json")], responseBody: #"{"id":"tr_1","status":"open"}"#, duration: 0.012, error: nil)
        let first = StepResult(name: "call createPayment", location: at, outcome: .pending, exchanges: [create], duration: 0.012)
        let second = StepResult(
            name: "call getPayment", location: SourceLocation(file: "Suites/mollie/payments.yaml", line: 16, column: 7),
            issue: .mismatches([Mismatch(location: at, subject: "body.status", expected: .matcher("eq", .string("paid")), actual: .value(.string("open")), kind: .body)]),
            exchanges: [create], duration: 0.010)
        let failing = CaseResult(
            name: "a paid payment", location: at, verdict: .failed, steps: [first, second], startedAt: Date(timeIntervalSince1970: 1_768_471_200))
        var suite = SuiteResult(file: "Suites/mollie/payments.yaml", name: "Mollie · payments", provider: "mollie", cases: [failing], startedAt: failing.startedAt)
        suite.description = "The payment lifecycle of providers' section 4.4."
        suite.tags = ["lifecycle", "mollie"]
        var result = RunResult(
            suites: [suite], target: "mock", targetKind: "mock", version: "test", hostname: "test-host", startedAt: failing.startedAt, duration: 1)
        result.runId = "run-42"
        result.context = [("commit", "0123abcd"), ("CI job", "https://github.com/acme/shop/actions/runs/42")]
        return result
    }

    @Test(
        "each step folds on its own, the failing one open and marked; bodies pretty-printed; copy as curl; suite description, tags and the environment panel",
        .enabled(if: chromium != nil || required, "Chromium is not installed (apt-get install chromium)"))
    func stepsAndEnvironment() async throws {
        guard Self.chromium != nil else {
            Issue.record("PAYCHECK_REQUIRE_CHROMIUM=1 but no Chromium was found")
            return
        }
        let dom = try await Self.dom(HTMLReporter.render(Self.stepsRun()), fragment: "")
        let suites = try #require(dom.components(separatedBy: "<h2>Suites</h2>").last)
        // The failing step is open and marked; the one before it is folded.
        #expect(suites.contains(#"<details class="step failed" open="">"#), "\(suites.prefix(3000))")
        #expect(suites.contains(#"<details class="step passed">"#))
        #expect(suites.contains("body.status: expected <code class=\"exp\">\"paid\"</code>, got <code class=\"act\">\"open\"</code>"))
        // JSON bodies are pretty-printed, one member per line.
        #expect(suites.contains("\n  \"amount\": {\n    \"currency\": \"EUR\","))
        // Copy as curl, quoted for a shell, with the redacted header as it is in the report.
        #expect(suites.contains("curl -X POST 'http://127.0.0.1:8080/mollie/v2/payments' -H 'Authorization: Bearer [redacted]'"))
        #expect(suites.contains("it'\\''s an order"))
        // The suite's description and tags.
        #expect(suites.contains("<p class=\"desc\">The payment lifecycle of providers' section 4.4.</p>"))
        #expect(suites.contains("<span class=\"tag\">lifecycle</span>"))
        // The environment panel, with the CI job linked.
        let environment = try #require(dom.components(separatedBy: "<details id=\"environment\">").last?.components(separatedBy: "</details>").first)
        #expect(environment.contains("<code>run-42</code>") && environment.contains("<code>0123abcd</code>"))
        #expect(environment.contains("<a href=\"https://github.com/acme/shop/actions/runs/42\">"))
    }
}
