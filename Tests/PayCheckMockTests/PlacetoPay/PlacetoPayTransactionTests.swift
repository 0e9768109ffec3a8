import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("PlacetoPay mock: transaction actions and collect (providers.md §1.7, §1.8)")
struct PlacetoPayTransactionTests {
    /// Creates a session with `body`, pays it with `card`, and returns the requestId and internalReference.
    private func paid(
        _ mock: PlacetoPayHarness,
        _ body: [String: Any] = PlacetoPayHarness.sessionBody(),
        card: String = "4110760000000081"
    ) async throws -> (Int, Int) {
        let requestId = try await mock.create(body)
        let response = try await mock.pay(requestId, card: card)
        let reference = try #require(value(response.object(), "transaction.internalReference") as? Int)
        return (requestId, reference)
    }

    /// Expects a 400 with `reason` and `message`.
    private func expectError(
        _ response: TestResponse,
        reason: String,
        message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == .badRequest, sourceLocation: sourceLocation)
        #expect(string(response.object(), "status.status") == "FAILED", sourceLocation: sourceLocation)
        #expect(string(response.object(), "status.reason") == reason, sourceLocation: sourceLocation)
        #expect(string(response.object(), "status.message") == message, sourceLocation: sourceLocation)
    }

    @Test("requiresConfirmation: PENDING_CONFIRMATION until confirm, then APPROVED")
    func confirmFlow() async throws {
        try await withPlacetoPay { mock in
            let body = PlacetoPayHarness.sessionBody(["metadata": ["requiresConfirmation": true]])
            let (requestId, reference) = try await self.paid(mock, body)
            var query = try await mock.query(requestId)
            #expect(string(query, "status.status") == "PENDING")
            #expect(string(query, "payment.0.status.status") == "PENDING_CONFIRMATION")
            #expect(string(query, "payment.0.status.reason") == "PT")
            #expect(try await mock.post("api/session/\(requestId)/cancel").status == .badRequest)

            let confirm = try await mock.post("api/transaction", ["internalReference": reference, "action": "confirm"])
            #expect(confirm.status == .ok)
            #expect(string(confirm.object(), "status.status") == "APPROVED")
            #expect(string(confirm.object(), "status.reason") == "00")
            #expect(string(confirm.object(), "payment.status.status") == "APPROVED")
            query = try await mock.query(requestId)
            #expect(string(query, "status.status") == "APPROVED")

            self.expectError(
                try await mock.post("api/transaction", ["internalReference": reference, "action": "confirm"]),
                reason: "request_not_valid",
                message: "The [confirm] action is only available for transactions in a pending confirmation state")
        }
    }

    @Test("cancel of a pending confirmation: REJECTED/?C, and the session ends REJECTED/MC")
    func cancelConfirmation() async throws {
        try await withPlacetoPay { mock in
            let body = PlacetoPayHarness.sessionBody(["metadata": ["requiresConfirmation": "true"]])
            let (requestId, reference) = try await self.paid(mock, body)
            let cancel = try await mock.post("api/transaction", ["internalReference": reference, "action": "cancel"])
            #expect(string(cancel.object(), "status.status") == "REJECTED")
            #expect(string(cancel.object(), "status.reason") == "?C")
            #expect(string(cancel.object(), "payment.status.status") == "REJECTED")
            #expect(string(cancel.object(), "payment.status.reason") == "?C")
            #expect(string(cancel.object(), "payment.status.message") == "Cancelled by the merchant")
            let query = try await mock.query(requestId)
            #expect(string(query, "status.status") == "REJECTED")
            #expect(string(query, "status.reason") == "MC")
        }
    }

    @Test("confirm after the session expired: 400 transaction_request_error")
    func confirmAfterExpiry() async throws {
        try await withPlacetoPay { mock in
            let body = PlacetoPayHarness.sessionBody(["metadata": ["requiresConfirmation": true]])
            let (requestId, reference) = try await self.paid(mock, body)
            mock.advance(31 * 60)
            self.expectError(
                try await mock.post("api/transaction", ["internalReference": reference, "action": "confirm"]),
                reason: "transaction_request_error", message: "The transaction has already expired")
            #expect(string(try await mock.query(requestId), "status.reason") == "EX")
        }
    }

    @Test("reverse: a new APPROVED refund transaction, refunded true, session unchanged; again: 200 FAILED/BR")
    func reverse() async throws {
        try await withPlacetoPay { mock in
            let (requestId, reference) = try await self.paid(mock)
            let reverse = try await mock.post("api/transaction", ["internalReference": reference, "action": "reverse"])
            #expect(reverse.status == .ok)
            #expect(string(reverse.object(), "status.status") == "APPROVED")
            #expect(value(reverse.object(), "payment.internalReference") as? Int != reference)
            let query = try await mock.query(requestId)
            #expect(string(query, "status.status") == "APPROVED")
            #expect(value(query, "payment.0.refunded") as? Bool == true)

            let again = try await mock.post(
                "api/transaction", ["internalReference": String(reference), "action": "reverse"])
            #expect(again.status == .ok)
            #expect(string(again.object(), "status.status") == "FAILED")
            #expect(string(again.object(), "status.reason") == "BR")
            #expect(string(again.object(), "status.message") == "Transaction already refunded")
            #expect(string(again.object(), "payment.status.status") == "FAILED")
            #expect(string(again.object(), "payment.status.reason") == "BR")
        }
    }

    @Test("partial refunds are allowed until the whole amount is refunded")
    func partialRefunds() async throws {
        try await withPlacetoPay { mock in
            let (requestId, reference) = try await self.paid(mock)
            let amount: [String: Any] = ["currency": "COP", "total": 4000]
            let first = try await mock.post(
                "api/transaction", ["internalReference": reference, "action": "reverse", "amount": amount])
            #expect(value(first.object(), "payment.amount.from.total") as? Int == 4000)
            self.expectError(
                try await mock.post(
                    "api/transaction",
                    ["internalReference": reference, "action": "reverse", "amount": ["total": 7000]]),
                reason: "request_not_valid",
                message: "The amount to reverse (7000) exceeds the amount that can still be refunded (6000)")
            let rest = try await mock.post(
                "api/transaction", ["internalReference": reference, "action": "reverse", "amount": ["total": 6000]])
            #expect(value(rest.object(), "payment.amount.from.total") as? Int == 6000)
            #expect(value(try await mock.query(requestId), "payment.0.refunded") as? Bool == true)
        }
    }

    @Test("legacy /api/reverse answers {status, payment}")
    func legacyReverse() async throws {
        try await withPlacetoPay { mock in
            let (requestId, reference) = try await self.paid(mock)
            let response = try await mock.post("api/reverse", ["internalReference": reference])
            #expect(response.status == .ok)
            #expect(string(response.object(), "status.status") == "APPROVED")
            #expect(value(response.object(), "payment.internalReference") as? Int != reference)
            #expect(value(try await mock.query(requestId), "payment.0.refunded") as? Bool == true)
        }
    }

    @Test("action errors: unknown transaction, bad action, reverse of a rejected one, checkout outside checkin")
    func actionErrors() async throws {
        try await withPlacetoPay { mock in
            self.expectError(
                try await mock.post("api/transaction", ["internalReference": 999, "action": "reverse"]),
                reason: "request_not_valid", message: "The transaction you are looking for does not exist")
            let (_, approved) = try await self.paid(mock)
            self.expectError(
                try await mock.post("api/transaction", ["internalReference": approved, "action": "refund"]),
                reason: "request_not_valid",
                message: "The action 'refund' is not valid; use checkout, reauthorization, reverse, confirm or cancel")
            self.expectError(
                try await mock.post("api/transaction", ["internalReference": approved, "action": "checkout"]),
                reason: "request_not_valid",
                message:
                    "The [checkout] action is only available for transactions of checkin (pre-authorization) sessions")
            let (_, rejected) = try await self.paid(mock, card: "4110760000000016")
            self.expectError(
                try await mock.post("api/transaction", ["internalReference": rejected, "action": "reverse"]),
                reason: "request_not_valid", message: "The [reverse] action is only available for approved transactions"
            )
            let other = PlacetoPaySigner(login: "other-site", secret: "other")
            #expect(try await mock.control(.post, "mock/site", ["login": "other-site", "secretKey": "other"]).status == .ok)
            self.expectError(
                try await mock.post(
                    "api/transaction", ["internalReference": approved, "action": "reverse"], signer: other),
                reason: "request_not_valid", message: "The transaction you are looking for does not exist")
        }
    }

    @Test("checkin sessions: reauthorization and checkout answer new transactions; the old ones are closed")
    func checkin() async throws {
        try await withPlacetoPay { mock in
            let (_, reference) = try await self.paid(mock, PlacetoPayHarness.sessionBody(["type": "checkin"]))
            let reauthorize = try await mock.post(
                "api/transaction",
                ["internalReference": reference, "action": "reauthorization", "amount": ["total": 12000]])
            #expect(value(reauthorize.object(), "payment.amount.from.total") as? Int == 12000)
            let renewed = try #require(value(reauthorize.object(), "payment.internalReference") as? Int)
            #expect(renewed != reference)
            #expect(
                try await mock.post("api/transaction", ["internalReference": reference, "action": "checkout"]).status
                    == .badRequest)
            let capture = try await mock.post(
                "api/transaction", ["internalReference": renewed, "action": "checkout"])
            #expect(string(capture.object(), "status.status") == "APPROVED")
            #expect(value(capture.object(), "payment.internalReference") as? Int != renewed)
            #expect(
                try await mock.post("api/transaction", ["internalReference": renewed, "action": "checkout"]).status
                    == .badRequest)
        }
    }

    @Test("collect charges the token of an approved subscribe session; an unknown token is 400 XN")
    func collect() async throws {
        try await withPlacetoPay { mock in
            let (requestId, _) = try await self.paid(mock, PlacetoPayHarness.sessionBody(payment: ["subscribe": true]))
            let query = try await mock.query(requestId)
            #expect(string(query, "subscription.type") == "token")
            #expect(string(query, "subscription.status.status") == "OK")
            #expect(string(query, "subscription.instrument.0.keyword") == "token")
            let token = try #require(string(query, "subscription.instrument.0.value"))
            #expect(token.count == 64)

            var body = PlacetoPayHarness.sessionBody(reference: "COLLECT-1", total: 5000)
            body["instrument"] = ["token": ["token": token]]
            let withoutPayer = try await mock.post("api/collect", body)
            #expect(withoutPayer.status == .badRequest)
            #expect(string(withoutPayer.object(), "status.message") == "The payer field is required")
            body["payer"] = ["name": "Ana", "surname": "Ruiz", "email": "ana@example.com"]
            let collect = try await mock.post("api/collect", body)
            #expect(collect.status == .ok)
            #expect(collect.object()["requestId"] as? Int == requestId + 1)
            #expect(string(collect.object(), "status.status") == "APPROVED")
            #expect(string(collect.object(), "payment.0.status.status") == "APPROVED")
            #expect(value(collect.object(), "payment.0.amount.from.total") as? Int == 5000)
            #expect(value(collect.object(), "request.instrument") == nil)

            body["instrument"] = ["token": ["token": "not-a-token"]]
            let invalid = try await mock.post("api/collect", body)
            #expect(invalid.status == .badRequest)
            #expect(string(invalid.object(), "status.reason") == "XN")
            #expect(string(invalid.object(), "status.message") == "The token used is invalid")
        }
    }

    @Test("a subscription session tokenizes without paying")
    func subscriptionSession() async throws {
        try await withPlacetoPay { mock in
            var body = PlacetoPayHarness.sessionBody()
            body["payment"] = nil
            body["subscription"] = ["reference": "SUB-1", "description": "card on file"]
            let requestId = try await mock.create(body)
            let response = try await mock.pay(requestId, card: "4111111111111111", ["expiry": "02/28"])
            #expect(string(response.object(), "session.status") == "APPROVED")
            let query = try await mock.query(requestId)
            #expect(value(query, "payment") is NSNull)
            #expect(string(query, "subscription.instrument.6.value") == "2028-02-29")
        }
    }
}
