import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("PlacetoPay mock: session lifecycle (providers.md §1.5, §1.6)")
struct PlacetoPayLifecycleTests {
    @Test("partial payment: APPROVED_PARTIAL/P0, then the rest: APPROVED")
    func partialThenRest() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create(PlacetoPayHarness.sessionBody(payment: ["allowPartial": true]))
            let first = try await mock.pay(requestId, card: "4110760000000081", ["amount": 4000])
            #expect(string(first.object(), "session.status") == "APPROVED_PARTIAL")
            #expect(string(first.object(), "session.reason") == "P0")
            let tooMuch = try await mock.pay(requestId, card: "4110760000000081", ["amount": 7000])
            #expect(tooMuch.status == .badRequest)
            #expect(tooMuch.errorMessage == "'amount' 7000 exceeds the 6000 still to pay in session 1")
            let rest = try await mock.pay(requestId, card: "5367680000000005")
            #expect(string(rest.object(), "session.status") == "APPROVED")
            #expect(value(rest.object(), "transaction.amount.from.total") as? Int == 6000)
            let query = try await mock.query(requestId)
            #expect(string(query, "status.status") == "APPROVED")
            #expect((value(query, "payment") as? [Any])?.count == 2)
        }
    }

    @Test("a partly paid session that expires is PARTIAL_EXPIRED/PX")
    func partialExpired() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create(PlacetoPayHarness.sessionBody(payment: ["allowPartial": true]))
            _ = try await mock.pay(requestId, card: "4110760000000081", ["amount": 2500])
            mock.advance(30 * 60)
            let query = try await mock.query(requestId)
            #expect(string(query, "status.status") == "PARTIAL_EXPIRED")
            #expect(string(query, "status.reason") == "PX")
            #expect(string(query, "status.date") == "2026-01-15T05:30:00-05:00")
        }
    }

    @Test("an unpaid session expires at its expiration: REJECTED/EX; explicit expiration is honoured")
    func expiry() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create()
            let short = try await mock.create(
                PlacetoPayHarness.sessionBody(["expiration": "2026-01-15T05:06:00-05:00"]))
            let long = try await mock.create(PlacetoPayHarness.sessionBody(["expiration": "2026-01-15T09:00:00-05:00"]))
            mock.advance(6 * 60)
            #expect(string(try await mock.query(short), "status.reason") == "EX")
            mock.advance(24 * 60 - 1)
            #expect(string(try await mock.query(requestId), "status.status") == "PENDING")
            mock.advance(1)
            let query = try await mock.query(requestId)
            #expect(string(query, "status.status") == "REJECTED")
            #expect(string(query, "status.reason") == "EX")
            #expect(string(query, "status.message") == "The request has expired")
            #expect(string(try await mock.query(long), "status.status") == "PENDING")
        }
    }

    @Test("a pending bank transaction holds expiry back until it resolves")
    func expiryWaitsForBank() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create(
                PlacetoPayHarness.sessionBody(["expiration": "2026-01-15T05:05:00-05:00"]))
            mock.advance(150)
            _ = try await mock.pay(requestId, card: "4110760000000115")
            mock.advance(151)
            #expect(string(try await mock.query(requestId), "status.status") == "PENDING")
            mock.advance(29)
            let query = try await mock.query(requestId)
            #expect(string(query, "payment.0.status.status") == "REJECTED")
            #expect(string(query, "status.reason") == "EX")
            #expect(string(query, "status.date") == "2026-01-15T05:05:30-05:00")
        }
    }

    @Test("payer cancel: REJECTED/?C; then final")
    func payerCancel() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create()
            let cancel = try await mock.control(.post, "payer/cancel", ["requestId": requestId])
            #expect(cancel.status == .ok)
            #expect(string(cancel.object(), "session.reason") == "?C")
            #expect(string(try await mock.query(requestId), "status.reason") == "?C")
            #expect(try await mock.control(.post, "payer/cancel", ["requestId": requestId]).status == .conflict)
            #expect(try await mock.control(.post, "payer/abandon", ["requestId": requestId]).status == .conflict)
        }
    }

    @Test("payer abandon is recorded without a state change")
    func abandon() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create()
            let response = try await mock.control(.post, "payer/abandon", ["requestId": requestId])
            #expect(response.status == .ok)
            #expect(value(response.object(), "abandoned") as? Bool == true)
            #expect(string(try await mock.query(requestId), "status.status") == "PENDING")
        }
    }

    @Test("merchant cancel: 200 OK with the session REJECTED/MC; the process URL says not available")
    func merchantCancel() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create()
            _ = try await mock.pay(requestId, card: "4110760000000016")
            let response = try await mock.post("api/session/\(requestId)/cancel")
            #expect(response.status == .ok)
            let body = response.object()
            #expect(string(body, "status.status") == "OK")
            #expect(string(body, "session.status.status") == "REJECTED")
            #expect(string(body, "session.status.reason") == "MC")
            #expect(string(body, "session.status.message") == "The request has been cancelled by the merchant")
            #expect(string(body, "session.payment.0.status.status") == "REJECTED")
            let url = try #require(string(body, "session.request.fields.0.value"))
            let page = try await mock.client.send(.get, String(url.dropFirst("http://localhost".count)))
            #expect(page.text.contains("<dd id=\"status\">not available</dd>") && !page.text.contains("<button"))
        }
    }

    @Test("merchant cancel errors: 404 unknown, 400 not pending, 400 payment in progress")
    func merchantCancelErrors() async throws {
        try await withPlacetoPay { mock in
            let unknown = try await mock.post("api/session/77/cancel")
            #expect(unknown.status == .notFound)
            #expect(string(unknown.object(), "status.reason") == "request_not_valid")
            #expect(string(unknown.object(), "status.message") == "The requested session does not exist")

            let approved = try await mock.create()
            _ = try await mock.pay(approved, card: "4110760000000081")
            let notPending = try await mock.post("api/session/\(approved)/cancel")
            #expect(notPending.status == .badRequest)
            #expect(string(notPending.object(), "status.reason") == "action_not_allowed")
            #expect(
                string(notPending.object(), "status.message") == "Sessions that are not pending cannot be cancelled")

            let busy = try await mock.create()
            _ = try await mock.pay(busy, card: "4110760000000073")
            let inProgress = try await mock.post("api/session/\(busy)/cancel")
            #expect(inProgress.status == .badRequest)
            #expect(string(inProgress.object(), "status.reason") == "action_not_allowed")
        }
    }

    @Test("reset forgets sessions and restarts requestIds at 1")
    func reset() async throws {
        try await withPlacetoPay { mock in
            _ = try await mock.create()
            #expect(try await mock.control(.post, "mock/site", ["login": "temp-site", "secretKey": "s"]).status == .ok)
            #expect(try await mock.client.send(.post, "/__paycheck/reset").status == .ok)
            #expect(try await mock.create() == 1)
            #expect(try await mock.control(.get, "sites/temp-site").status == .notFound)
        }
    }
}
