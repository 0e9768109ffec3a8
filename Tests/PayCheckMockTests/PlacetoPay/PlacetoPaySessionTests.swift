import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("PlacetoPay mock: create, query, routes (providers.md §1.4, §1.5)")
struct PlacetoPaySessionTests {
    @Test("create answers OK/PC with an incrementing requestId and a real process URL")
    func create() async throws {
        try await withPlacetoPay { mock in
            let response = try await mock.post("api/session", PlacetoPayHarness.sessionBody())
            #expect(response.status == .ok)
            #expect(response.isJSON)
            let body = response.object()
            #expect(string(body, "status.status") == "OK")
            #expect(string(body, "status.reason") == "PC")
            #expect(string(body, "status.message") == "The request has been processed successfully")
            #expect(string(body, "status.date") == "2026-01-15T05:00:00-05:00")
            #expect(body["requestId"] as? Int == 1)
            let processUrl = try #require(body["processUrl"] as? String)
            #expect(processUrl.wholeMatch(of: /http:\/\/localhost\/placetopay\/session\/1\/[0-9a-f]{32}/) != nil)
            #expect(try await mock.create() == 2)

            let page = try await mock.client.send(.get, String(processUrl.dropFirst("http://localhost".count)))
            #expect(page.status == .ok)
            #expect(page.text.contains("<dd id=\"status\">PENDING</dd>") && page.text.contains("<button type=\"submit\" id=\"pay\""))
            #expect(try await mock.client.send(.get, "/placetopay/session/1/0000").status == .notFound)
        }
    }

    @Test("query of a new session: PENDING/PT, the request echo without auth, payment and subscription null")
    func queryPending() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create()
            let body = try await mock.query(requestId)
            #expect(body["requestId"] as? Int == requestId)
            #expect(string(body, "status.status") == "PENDING")
            #expect(string(body, "status.reason") == "PT")
            #expect(value(body, "payment") is NSNull)
            #expect(value(body, "subscription") is NSNull)
            #expect(value(body, "request.auth") == nil)
            #expect(string(body, "request.payment.reference") == "PAYCHECK-1")
            #expect(value(body, "request.payment.amount.total") as? Int == 10000)
            #expect(value(body, "request.payment.allowPartial") as? Bool == false)
            #expect(string(body, "request.locale") == "en_US")
            #expect(string(body, "request.expiration") == "2026-01-15T10:30:00.000Z", "a defaulted expiration: UTC with milliseconds, as the docs show it")
            #expect(string(body, "request.fields.0.keyword") == "_processUrl_")
            #expect(string(body, "request.fields.0.displayOn") == "none")
            #expect(string(body, "request.fields.0.value")?.hasPrefix("http://localhost/placetopay/session/1/") == true)
        }
    }

    @Test("the Python client's string booleans and float totals are accepted and echoed as JSON types")
    func pythonClientShapes() async throws {
        try await withPlacetoPay { mock in
            let body = PlacetoPayHarness.sessionBody(
                total: 10000.5, payment: ["allowPartial": "false", "subscribe": "false", "items": NSNull()],
                ["captureAddress": "false", "skipResult": "false", "noBuyerFill": "false", "locale": "es_CO"])
            let requestId = try await mock.create(body)
            let query = try await mock.query(requestId)
            #expect(value(query, "request.payment.allowPartial") as? Bool == false)
            #expect(value(query, "request.skipResult") as? Bool == false)
            #expect(value(query, "request.payment.amount.total") as? Double == 10000.5)
            #expect(value(query, "request.payment.items") == nil)

            let templated = PlacetoPayHarness.sessionBody(payment: ["amount": ["currency": "COP", "total": "165000"]])
            let echo = try await mock.query(try await mock.create(templated))
            #expect(value(echo, "request.payment.amount.total") as? Int == 165000)
        }
    }

    @Test("an unknown session is 404 request_not_valid; another site's session is 401 unauthorized")
    func unknownAndForeignSessions() async throws {
        try await withPlacetoPay { mock in
            let unknown = try await mock.post("api/session/99")
            #expect(unknown.status == .notFound)
            #expect(string(unknown.object(), "status.reason") == "request_not_valid")
            #expect(string(unknown.object(), "status.message") == "The requested session does not exist")

            let requestId = try await mock.create()
            #expect(try await mock.control(.post, "mock/site", ["login": "other-site", "secretKey": "other-secret"]).status == .ok)
            let foreign = try await mock.post(
                "api/session/\(requestId)", signer: PlacetoPaySigner(login: "other-site", secret: "other-secret"))
            #expect(foreign.status == .unauthorized)
            #expect(string(foreign.object(), "status.reason") == "unauthorized")
        }
    }

    @Test("unknown routes and wrong methods under /placetopay are 404 NA 'Page not found'")
    func unknownRoutes() async throws {
        try await withPlacetoPay { mock in
            for (method, path) in [
                (HTTPRequest.Method.post, "/placetopay/api/unknown"), (.get, "/placetopay/api/session"),
                (.post, "/placetopay"), (.post, "/placetopay/api/session/abc"),
                (.put, "/placetopay/api/session/1/cancel"),
                (.post, "/placetopay/api/session/1/cancel/more"),
            ] {
                let response = try await mock.client.send(
                    method, path, body: "{}", headers: [.contentType: "application/json"])
                #expect(response.status == .notFound, "\(method) \(path)")
                let body = response.object()
                #expect(string(body, "status.status") == "FAILED")
                #expect(string(body, "status.reason") == "NA")
                #expect(string(body, "status.message") == "Page not found")
            }
        }
    }

    @Test(
        "create validation errors are 400 BR naming the field",
        arguments: [
            (["ipAddress": NSNull()], "The ipAddress field is required"),
            (["userAgent": 5], "The userAgent field must be a string, got a number"),
            (["returnUrl": "not a url"], "The returnUrl field must be an absolute URL, got 'not a url'"),
            (["payment": NSNull()], "Either the payment or the subscription field is required"),
            (
                ["expiration": "2026-01-15T05:04:00-05:00"],
                "The expiration field must be at least 5 minutes after the current time 2026-01-15T05:00:00-05:00, got '2026-01-15T05:04:00-05:00'"
            ),
            (
                ["expiration": "tomorrow"],
                "The expiration field must be an ISO 8601 date-time with offset, got 'tomorrow'"
            ),
            (["type": "layaway"], "The type field must be 'checkin' or 'autopay', got 'layaway'"),
        ] as [([String: any Sendable], String)]
    )
    func topLevelValidation(change: [String: any Sendable], message: String) async throws {
        try await withPlacetoPay { mock in
            var body = PlacetoPayHarness.sessionBody()
            for (key, replacement) in change {
                if replacement is NSNull { body[key] = nil } else { body[key] = replacement }
            }
            let response = try await mock.post("api/session", body)
            #expect(response.status == .badRequest)
            #expect(string(response.object(), "status.status") == "FAILED")
            #expect(string(response.object(), "status.reason") == "BR")
            #expect(string(response.object(), "status.message") == message)
        }
    }

    @Test(
        "payment validation errors are 400 BR naming the field",
        arguments: [
            (
                ["reference": String(repeating: "R", count: 33)],
                "The payment.reference field must be at most 32 characters, got 33: '\(String(repeating: "R", count: 33))'"
            ),
            (["reference": ""], "The payment.reference field is required"),
            (
                ["description": String(repeating: "d", count: 256)],
                "The payment.description field must be at most 255 characters, got 256: '\(String(repeating: "d", count: 60))…'"
            ),
            (
                ["amount": ["currency": "pesos", "total": 1] as [String: any Sendable]],
                "The payment.amount.currency field must be at most 3 characters, got 5: 'pesos'"
            ),
            (
                ["amount": ["currency": "cop", "total": 1] as [String: any Sendable]],
                "The payment.amount.currency field must be an ISO 4217 code such as 'COP', got 'cop'"
            ),
            (
                ["amount": ["currency": "COP", "total": 0] as [String: any Sendable]],
                "The payment.amount.total field must be a number greater than 0, got 0"
            ),
            (["amount": ["currency": "COP"]], "The payment.amount.total field is required"),
            (["allowPartial": "maybe"], "The payment.allowPartial field must be a boolean, got 'maybe'"),
        ] as [([String: any Sendable], String)]
    )
    func paymentValidation(change: [String: any Sendable], message: String) async throws {
        try await withPlacetoPay { mock in
            let body = PlacetoPayHarness.sessionBody(payment: change)
            let response = try await mock.post("api/session", body)
            #expect(response.status == .badRequest)
            #expect(string(response.object(), "status.reason") == "BR")
            #expect(string(response.object(), "status.message") == message)
        }
    }
}
