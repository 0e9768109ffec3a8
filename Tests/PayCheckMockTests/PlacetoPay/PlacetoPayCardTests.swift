import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("PlacetoPay mock: test cards through payer/pay (providers.md §1.10)")
struct PlacetoPayCardTests {
    /// Pays a new session with `card` and returns the requestId and the pay response body.
    private func payNew(
        _ mock: PlacetoPayHarness,
        card: String,
        _ extra: [String: Any] = [:]
    ) async throws -> (Int, [String: Any]) {
        let requestId = try await mock.create()
        let response = try await mock.pay(requestId, card: card, extra)
        #expect(response.status == .ok, "pay failed: \(response.text)")
        return (requestId, response.object())
    }

    @Test(
        "immediate outcomes: session and transaction status by card",
        arguments: [
            ("4110760000000081", "APPROVED", "00", "APPROVED", "00", "visa"),
            ("4111111111111111", "APPROVED", "00", "APPROVED", "00", "visa"),
            ("5367680000000005", "APPROVED", "00", "APPROVED", "00", "master"),
            ("377222581193005", "APPROVED", "00", "APPROVED", "00", "amex"),
            ("36545400000008", "APPROVED", "00", "APPROVED", "00", "diners"),
            ("4110760000000016", "PENDING", "PT", "REJECTED", "05", "visa"),
            ("376651792202224", "PENDING", "PT", "REJECTED", "05", "amex"),
            ("4110760000000065", "PENDING", "PT", "FAILED", "BR", "visa"),
            ("4000000000000002", "PENDING", "PT", "REJECTED", "XN", "visa"),
        ]
    )
    func immediate(card: String, session: String, sessionReason: String, status: String, reason: String, method: String)
        async throws
    {
        try await withPlacetoPay { mock in
            let (requestId, paid) = try await self.payNew(mock, card: card)
            #expect(string(paid, "session.status") == session)
            #expect(string(paid, "transaction.status.status") == status)
            let query = try await mock.query(requestId)
            #expect(string(query, "status.status") == session)
            #expect(string(query, "status.reason") == sessionReason)
            #expect(string(query, "payment.0.status.status") == status)
            #expect(string(query, "payment.0.status.reason") == reason)
            #expect(string(query, "payment.0.paymentMethod") == method)
            let fields = value(query, "payment.0.processorFields") as? [[String: Any]] ?? []
            let lastDigits = fields.first { $0["keyword"] as? String == "lastDigits" }?["value"] as? String
            #expect(lastDigits == String(card.suffix(4)))
            #expect(!fields.contains { $0["keyword"] as? String == "onTest" })
            #expect(string(query, "payment.0.authorization")?.count == 6)
            #expect((string(query, "payment.0.authorization") == "000000") == (status != "APPROVED"))
            #expect(value(query, "payment.0.refunded") as? Bool == false)
            #expect(!query.description.contains(card), "the full card number must never be stored")
        }
    }

    @Test("3DS challenge: OTP 12345 approves, a wrong OTP rejects")
    func challenge() async throws {
        try await withPlacetoPay { mock in
            let (_, right) = try await self.payNew(mock, card: "4110760000000008", ["otp": "12345"])
            #expect(string(right, "transaction.status.status") == "APPROVED")
            let (_, wrong) = try await self.payNew(mock, card: "4110760000000008", ["otp": "99999"])
            #expect(string(wrong, "transaction.status.status") == "REJECTED")
            #expect(string(wrong, "session.status") == "PENDING")
        }
    }

    @Test(
        "pending cards resolve once the mock clock passes 60 s",
        arguments: [("4110760000000073", "APPROVED"), ("4048370000000037", "REJECTED")])
    func pendingResolves(card: String, final: String) async throws {
        try await withPlacetoPay { mock in
            let (requestId, paid) = try await self.payNew(mock, card: card)
            #expect(string(paid, "transaction.status.status") == "PENDING")
            #expect(string(paid, "transaction.status.reason") == "?-")
            mock.advance(59)
            #expect(string(try await mock.query(requestId), "payment.0.status.status") == "PENDING")
            mock.advance(1)
            let query = try await mock.query(requestId)
            #expect(string(query, "payment.0.status.status") == final)
            #expect(string(query, "payment.0.status.date") == "2026-01-15T05:01:00-05:00")
            #expect(string(query, "status.status") == (final == "APPROVED" ? "APPROVED" : "PENDING"))
        }
    }

    @Test("the 180 s delayed card stays pending at +60 s and resolves at +180 s")
    func delayed() async throws {
        try await withPlacetoPay { mock in
            let (requestId, _) = try await self.payNew(mock, card: "4110760000000024")
            mock.advance(60)
            #expect(string(try await mock.query(requestId), "payment.0.status.status") == "PENDING")
            let busy = try await mock.pay(requestId, card: "4110760000000081")
            #expect(busy.status == .conflict)
            #expect(busy.errorMessage?.contains("has a payment in progress") == true)
            mock.advance(120)
            let query = try await mock.query(requestId)
            #expect(string(query, "status.status") == "APPROVED")
            #expect(string(query, "payment.0.status.status") == "APPROVED")
        }
    }

    @Test("4012888888881881 approves only with expiry 11/28 and CVV 917; 4110760000000057 only below 200")
    func conditionalCards() async throws {
        try await withPlacetoPay { mock in
            let (_, good) = try await self.payNew(mock, card: "4012888888881881", ["expiry": "11/28", "cvv": "917"])
            #expect(string(good, "transaction.status.status") == "APPROVED")
            let (_, bad) = try await self.payNew(mock, card: "4012888888881881", ["expiry": "12/28", "cvv": "917"])
            #expect(string(bad, "transaction.status.status") == "REJECTED")

            let small = try await mock.create(PlacetoPayHarness.sessionBody(total: 150))
            let smallPay = try await mock.pay(small, card: "4110760000000057")
            #expect(string(smallPay.object(), "transaction.status.status") == "APPROVED")
            let (_, large) = try await self.payNew(mock, card: "4110760000000057")
            #expect(string(large, "transaction.status.status") == "REJECTED")
        }
    }

    @Test("unquoted YAML values arrive as numbers: card, CVV and OTP numbers and a string amount are accepted")
    func numericInputs() async throws {
        try await withPlacetoPay { mock in
            let (_, challenge) = try await self.payNew(mock, card: "4110760000000008", ["otp": 12345])
            #expect(string(challenge, "transaction.status.status") == "APPROVED")
            let requestId = try await mock.create(PlacetoPayHarness.sessionBody(payment: ["allowPartial": true]))
            let response = try await mock.control(
                .post, "payer/pay",
                ["requestId": String(requestId), "card": 4_012_888_888_881_881, "expiry": "11/28", "cvv": 917, "amount": "2500"])
            #expect(string(response.object(), "transaction.status.status") == "APPROVED")
            #expect(value(response.object(), "transaction.amount.from.total") as? Int == 2500)
        }
    }

    @Test("an expired card is rejected with 54")
    func expiredCard() async throws {
        try await withPlacetoPay { mock in
            let (_, paid) = try await self.payNew(mock, card: "4110760000000081", ["expiry": "12/25"])
            #expect(string(paid, "transaction.status.status") == "REJECTED")
            #expect(string(paid, "transaction.status.reason") == "54")
        }
    }

    @Test("the 10th failed attempt rejects the session with XN; payments are listed newest first")
    func attemptLimit() async throws {
        try await withPlacetoPay { mock in
            let requestId = try await mock.create()
            for attempt in 1...10 {
                let response = try await mock.pay(requestId, card: "4110760000000016")
                #expect(response.status == .ok)
                #expect(string(response.object(), "session.status") == (attempt < 10 ? "PENDING" : "REJECTED"))
            }
            let query = try await mock.query(requestId)
            #expect(string(query, "status.reason") == "XN")
            #expect((value(query, "payment") as? [Any])?.count == 10)
            #expect(value(query, "payment.0.internalReference") as? Int == 100_010)
            let after = try await mock.pay(requestId, card: "4110760000000081")
            #expect(after.status == .conflict)
            #expect(after.errorMessage == "session 1 is already final (REJECTED/XN); the payer can no longer act on it")
        }
    }

    @Test("payer errors: unknown session 404, bad card 400, partial amount on a non-partial session 400")
    func payerErrors() async throws {
        try await withPlacetoPay { mock in
            let unknown = try await mock.pay(42, card: "4110760000000081")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorMessage == "no PlacetoPay session with requestId 42")
            let requestId = try await mock.create()
            let badCard = try await mock.pay(requestId, card: "41107600000000AB")
            #expect(badCard.status == .badRequest)
            #expect(badCard.errorMessage == "'card' must be 12 to 19 digits, got '41107600000000AB'")
            let partial = try await mock.pay(requestId, card: "4110760000000081", ["amount": 100])
            #expect(partial.status == .badRequest)
            #expect(partial.errorMessage?.contains("does not allow partial payments") == true)
            let unknownMember = try await mock.pay(requestId, card: "4110760000000081", ["pin": "1"])
            #expect(
                unknownMember.errorMessage
                    == "unknown member 'pin'; expected one of requestId, card, expiry, cvv, otp, amount")
        }
    }
}
