import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The payer's pages of the mocks in a real browser: a standalone mock, payments created through the built-in adapters
/// (a small suite run against it), then headless Chromium with JavaScript off opens each checkout URL, picks an
/// outcome by clicking (or with the keyboard), and lands on the merchant's return URL — the mock's echo route, which
/// journals it — or reads the deep link. The provider's state and its notification are then checked at the mock.
@Suite("Payer pages in headless Chromium", .serialized)
struct PayerPagesBrowserTests {
    static let enabled = Chromium.path != nil || Chromium.required

    /// The suites that create the payments: each case posts its checkout URL (and payment id) to
    /// `/__paycheck/echo/checkout/<provider>-<n>`, where the test reads it back from the journal.
    static let setup: [String: String] = [
        "mollie.yaml": """
        suite: browser setup · Mollie
        provider: mollie
        cases:
          - name: "payment {{ row.n }}"
            requires: [mock]
            rows: [{ n: "1" }, { n: "2" }, { n: "3" }]
            steps:
              - call: createPayment
                with:
                  amount: { currency: EUR, value: "10.00" }
                  description: "Browser order {{ row.n }}"
                  redirectUrl: "{{ mock.url }}/__paycheck/echo/back/mollie-{{ row.n }}"
                  cancelUrl: "{{ mock.url }}/__paycheck/echo/cancel/mollie-{{ row.n }}"
                  webhookUrl: "{{ mock.url }}/__paycheck/echo/hook/mollie-{{ row.n }}"
                capture: { checkout: body._links.checkout.href, id: body.id }
              - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/checkout/mollie-{{ row.n }}", json: { url: "{{ checkout }}", id: "{{ id }}" } }
          - name: payment with a deep link
            requires: [mock]
            steps:
              - call: createPayment
                with:
                  amount: { currency: EUR, value: "10.00" }
                  description: App order
                  redirectUrl: "mollie-checkout://payments/order-4"
                capture: { checkout: body._links.checkout.href, id: body.id }
              - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/checkout/mollie-4", json: { url: "{{ checkout }}", id: "{{ id }}" } }
        """,
        "placetopay.yaml": """
        suite: browser setup · PlacetoPay
        provider: placetopay
        vars: { login: "browser-{{ random(8) }}", secret: "browser-secret-{{ uuid() }}" }
        cases:
          - name: "session {{ row.n }}"
            requires: [mock]
            rows: [{ n: "1" }, { n: "2" }, { n: "3" }]
            steps:
              - mock: site
                with: { login: "{{ login }}", secretKey: "{{ secret }}", notificationUrl: "{{ mock.url }}/__paycheck/echo/hook/placetopay-{{ row.n }}" }
              - call: createSession
                auth: { login: "{{ login }}", secretKey: "{{ secret }}" }
                with:
                  payment: { reference: "BROWSER-{{ row.n }}", description: browser order, amount: { currency: COP, total: 10000 } }
                  returnUrl: "{{ mock.url }}/__paycheck/echo/back/placetopay-{{ row.n }}"
                  cancelUrl: "{{ mock.url }}/__paycheck/echo/cancel/placetopay-{{ row.n }}"
                capture: { checkout: body.processUrl, id: body.requestId }
              - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/checkout/placetopay-{{ row.n }}", json: { url: "{{ checkout }}", id: "{{ id }}" } }
        """,
        "khipu.yaml": """
        suite: browser setup · khipu
        provider: khipu
        cases:
          - name: "payment {{ row.n }}"
            requires: [mock]
            rows: [{ n: "1" }, { n: "2" }]
            steps:
              - call: createPayment
                with:
                  subject: "Browser order {{ row.n }}"
                  currency: CLP
                  amount: 5000
                  return_url: "{{ mock.url }}/__paycheck/echo/back/khipu-{{ row.n }}"
                  cancel_url: "{{ mock.url }}/__paycheck/echo/cancel/khipu-{{ row.n }}"
                  notify_url: "{{ mock.url }}/__paycheck/echo/hook/khipu-{{ row.n }}"
                  notify_api_version: "3.0"
                capture: { checkout: body.payment_url, id: body.payment_id }
              - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/checkout/khipu-{{ row.n }}", json: { url: "{{ checkout }}", id: "{{ id }}" } }
        """,
        "mit.yaml": """
        suite: browser setup · MIT
        provider: mit
        vars: { data0: "B{{ random(8) }}" }
        cases:
          - name: "link {{ row.n }}"
            requires: [mock]
            rows: [{ n: "1" }, { n: "2" }, { n: "3" }]
            steps:
              - mock: site
                with: { data0: "{{ data0 }}-{{ row.n }}", responseUrl: "{{ mock.url }}/__paycheck/echo/hook/mit-{{ row.n }}" }
              - call: generateLink
                auth: { data0: "{{ data0 }}-{{ row.n }}" }
                with: { reference: "BROWSER{{ row.n }}", amount: "100.00" }
                capture: { checkout: body.P_RESPONSE.nb_url }
              - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/checkout/mit-{{ row.n }}", json: { url: "{{ checkout }}", id: "{{ row.n }}" } }
        """,
    ]

    /// The mock, with the payments created.
    struct Fixture {
        let mock: Process
        let base: String

        /// The checkout URL and payment id the setup posted for `key` (`mollie-1`, …).
        func checkout(_ key: String) async throws -> (url: String, id: String) {
            let body = try #require(try await journal("/__paycheck/echo/checkout/\(key)").first?["body"] as? String)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            return (try #require(json["url"] as? String), "\(json["id"] ?? "")")
        }

        /// The requests the mock journaled under `path`.
        func journal(_ path: String) async throws -> [[String: Any]] {
            let answer = try await get("/__paycheck/journal?path=\(path)")
            return (try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])?["requests"] as? [[String: Any]] ?? []
        }

        /// `POST base + path` with a JSON body.
        func post(_ path: String, json: String) async throws {
            var request = HTTPClientRequest(url: base + path)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            _ = try await response.body.collect(upTo: 1 << 20)
            #expect(response.status.code == 200, "\(path) answered \(response.status.code)")
        }

        /// `GET base + path` with `headers`, as text.
        func get(_ path: String, headers: [(String, String)] = []) async throws -> String {
            var request = HTTPClientRequest(url: base + path)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            return String(buffer: try await response.body.collect(upTo: 1 << 20))
        }
    }

    /// The mock with the payments created, set up on a thread of its own: starting the mock and running the setup
    /// suites wait on child processes, which must not hold a thread of the concurrency pool other tests need.
    static func start() async throws -> (CLI, Fixture) {
        struct Started: @unchecked Sendable { let value: (CLI, Fixture) }
        let started: Started = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { Started(value: try startNow()) }) }
        }
        return started.value
    }

    static func startNow() throws -> (CLI, Fixture) {
        let cli = try CLI(files: setup)
        let (mock, base) = try cli.startStandaloneMock()
        let run = try cli.run(["run"] + setup.keys.sorted() + ["--target", "url=\(base)", "--quiet", "--no-reports"])
        guard run.status == 0 else {
            mock.terminate()
            throw Chromium.Failure(description: "the setup suites failed: \(run.stdout.suffix(3000))")
        }
        return (cli, Fixture(mock: mock, base: base))
    }

    /// Every form control of `page` has an accessible name, and Tab reaches a button.
    static func checkAccessible(_ page: Chromium.Page) async throws {
        let nodes = try await page.accessibleNodes()
        let controls = nodes.filter { ["radio", "textbox", "button", "link", "combobox"].contains($0.role) }
        #expect(!controls.isEmpty)
        for control in controls { #expect(!control.name.isEmpty, "a \(control.role) without an accessible name") }
        var reached = false
        for _ in 0..<12 where !reached {
            try await page.press("Tab")
            reached = try await page.accessibleNodes().contains { $0.focused && $0.role == "button" }
        }
        #expect(reached, "no button is reachable with the Tab key")
    }

    /// The page loads nothing from elsewhere and carries no script.
    static func checkSelfContained(_ html: String) {
        #expect(!html.contains("<script"), "the page has a script")
        for attribute in ["src=\"http", "href=\"//", "<link "] { #expect(!html.contains(attribute), "the page loads \(attribute)…") }
    }

    @Test(
        "Mollie's test-mode page: paid and failed by clicking, canceled with the keyboard, each back at the merchant with the webhook called; a deep link is shown",
        .enabled(if: enabled, "Chromium is not installed (apt-get install chromium)"))
    func mollie() async throws {
        let (cli, fixture) = try await Self.start()
        defer { fixture.mock.terminate(); _ = cli }
        let browser = try Chromium()
        let key = [("Authorization", "Bearer test_PayCheckMollieMockKey0123456789ab")]
        for (n, status, landing) in [("1", "paid", "back"), ("2", "failed", "back")] {
            let (url, id) = try await fixture.checkout("mollie-\(n)")
            let page = try await browser.open(url)
            Self.checkSelfContained(try await page.html())
            if n == "1" { try await Self.checkAccessible(try await browser.open(url)) }
            try await page.click("label[for=status-\(status)]")
            try await page.clickAndWait("#continue")
            #expect(try await page.url() == fixture.base + "/__paycheck/echo/\(landing)/mollie-\(n)")
            #expect(try await fixture.get("/mollie/v2/payments/\(id)", headers: key).contains("\"status\":\"\(status)\""))
            #expect(try await fixture.journal("/__paycheck/echo/hook/mollie-\(n)").contains { $0["body"] as? String == "id=\(id)" })
        }
        // The keyboard alone: Tab to the first choice, arrow down to "Authorized", "Failed", "Canceled", Tab to
        // Continue, Enter.
        let (url, id) = try await fixture.checkout("mollie-3")
        let page = try await browser.open(url)
        try await page.press("Tab")
        for _ in 0..<3 { try await page.press("ArrowDown") }
        try await page.press("Tab")
        #expect(try await page.accessibleNodes().contains { $0.focused && $0.role == "button" && $0.name == "Continue" })
        try await page.press("Enter")
        try await browser.wait(for: "Page.loadEventFired", session: page.session)
        #expect(try await page.url() == fixture.base + "/__paycheck/echo/cancel/mollie-3", "a cancel goes to cancelUrl")
        #expect(try await fixture.get("/mollie/v2/payments/\(id)", headers: key).contains("\"status\":\"canceled\""))
        #expect(try await fixture.journal("/__paycheck/echo/hook/mollie-3").contains { $0["body"] as? String == "id=\(id)" })
        // An app's deep link cannot be followed by a desktop browser: the page shows it.
        let app = try await browser.open(try await fixture.checkout("mollie-4").url)
        try await app.clickAndWait("#continue")
        let html = try await app.html()
        #expect(html.contains("<code id=\"deeplink\">mollie-checkout://payments/order-4</code>"), "\(html.prefix(2000))")
        #expect(html.contains("href=\"mollie-checkout://payments/order-4\""))
    }

    @Test(
        "PlacetoPay's checkout: approved back at returnUrl and notified; a rejected card shown, then back to the store; cancel to cancelUrl",
        .enabled(if: enabled, "Chromium is not installed (apt-get install chromium)"))
    func placetopay() async throws {
        let (cli, fixture) = try await Self.start()
        defer { fixture.mock.terminate(); _ = cli }
        let browser = try Chromium()
        // Approved: the first card is checked.
        let (url1, id1) = try await fixture.checkout("placetopay-1")
        let page1 = try await browser.open(url1)
        Self.checkSelfContained(try await page1.html())
        try await Self.checkAccessible(try await browser.open(url1))
        try await page1.clickAndWait("#pay")
        #expect(try await page1.url() == fixture.base + "/__paycheck/echo/back/placetopay-1")
        let notified = try await fixture.journal("/__paycheck/echo/hook/placetopay-1")
        #expect(notified.count == 1 && (notified.first?["body"] as? String ?? "").contains("\"requestId\":\(id1)"))
        #expect((notified.first?["body"] as? String ?? "").contains("APPROVED"))
        // Rejected: the page says why and stays open for another attempt; "Back to the store" goes to returnUrl.
        let page2 = try await browser.open(try await fixture.checkout("placetopay-2").url)
        try await page2.click("label[for=card-4110760000000016]")
        try await page2.clickAndWait("#pay")
        let rejected = try await page2.html()
        #expect(rejected.contains("id=\"message\""), "\(rejected.prefix(2000))")
        #expect(rejected.contains("<dd id=\"status\">PENDING</dd>"))
        try await page2.clickAndWait("#return")
        #expect(try await page2.url() == fixture.base + "/__paycheck/echo/back/placetopay-2")
        // Cancel: to cancelUrl, the session REJECTED and notified.
        let page3 = try await browser.open(try await fixture.checkout("placetopay-3").url)
        try await page3.clickAndWait("#cancel")
        #expect(try await page3.url() == fixture.base + "/__paycheck/echo/cancel/placetopay-3")
        #expect((try await fixture.journal("/__paycheck/echo/hook/placetopay-3").first?["body"] as? String ?? "").contains("REJECTED"))
    }

    @Test(
        "khipu's payment page on the mock: paid through DemoBank back at return_url; rejected to cancel_url",
        .enabled(if: enabled, "Chromium is not installed (apt-get install chromium)"))
    func khipu() async throws {
        let (cli, fixture) = try await Self.start()
        defer { fixture.mock.terminate(); _ = cli }
        let browser = try Chromium()
        let (url1, id1) = try await fixture.checkout("khipu-1")
        #expect(url1.hasPrefix(fixture.base), "khipu's payment_url is on the mock: \(url1)")
        let page1 = try await browser.open(url1)
        Self.checkSelfContained(try await page1.html())
        try await Self.checkAccessible(try await browser.open(url1))
        try await page1.clickAndWait("#pay")
        #expect(try await page1.url() == fixture.base + "/__paycheck/echo/back/khipu-1")
        // The transfer is made; khipu reconciles it later (verifying until then, §2.8).
        let paid = try await browser.open(url1)
        #expect(try await paid.html().contains("<dd id=\"status\">verifying/"))
        #expect(try await fixture.journal("/__paycheck/echo/hook/khipu-1").isEmpty, "khipu notifies once the transfer is reconciled")
        try await fixture.post("/__paycheck/clock", json: #"{"advance": "1m"}"#)
        #expect(try await browser.open(url1).html().contains("<dd id=\"status\">done/"))
        let notified = try await fixture.journal("/__paycheck/echo/hook/khipu-1")
        #expect(notified.count == 1 && (notified.first?["body"] as? String ?? "").contains(id1))
        let page2 = try await browser.open(try await fixture.checkout("khipu-2").url)
        let (url2, _) = try await fixture.checkout("khipu-2")
        try await page2.clickAndWait("#reject")
        #expect(try await page2.url() == fixture.base + "/__paycheck/echo/cancel/khipu-2")
        #expect(try await browser.open(url2).html().contains("<dd id=\"status\">done/rejected-by-payer</dd>"))
    }

    @Test(
        "MIT's WebPay Plus link page: approved, denied and error each post the encrypted result to the response URL and show the receipt",
        .enabled(if: enabled, "Chromium is not installed (apt-get install chromium)"))
    func mit() async throws {
        let (cli, fixture) = try await Self.start()
        defer { fixture.mock.terminate(); _ = cli }
        let browser = try Chromium()
        for (n, result) in [("1", "approved"), ("2", "denied"), ("3", "error")] {
            let (url, _) = try await fixture.checkout("mit-\(n)")
            let page = try await browser.open(url)
            if n == "1" {
                Self.checkSelfContained(try await page.html())
                try await Self.checkAccessible(try await browser.open(url))
            }
            try await page.click("label[for=result-\(result)]")
            try await page.clickAndWait("#pay")
            #expect(try await page.html().contains("<dd id=\"status\">\(result)</dd>"))
            let posted = try await fixture.journal("/__paycheck/echo/hook/mit-\(n)")
            #expect(posted.count == 1 && (posted.first?["body"] as? String ?? "").hasPrefix("strResponse="))
        }
    }
}
