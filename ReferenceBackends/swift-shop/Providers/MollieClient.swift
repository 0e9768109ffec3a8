// Mollie (providers.md §4): the shop's client.
import Foundation

/// Mollie's API, as the shop uses it: create a payment, fetch one.
struct MollieClient: Sendable {
    /// The API base up to and including `/v2`.
    let baseURL: String
    /// The API key (Bearer); never logged.
    let apiKey: String
    /// The shop's public base URL, for `redirectUrl` and `webhookUrl`.
    let publicURL: String
    /// Whether a create carries an `Idempotency-Key` (`false` only with `SHOP_BUG=no-idempotency-key`).
    let sendsIdempotencyKey: Bool
    /// Whether a create names the shop's webhook (`false` only with `SHOP_BUG=no-notifications`).
    var asksForNotifications = true
    /// Whether a create names the shopper's return (`false` only with `SHOP_BUG=no-redirect-url`).
    var sendsRedirectURL = true
    /// The base of the shopper's return URL when it is not `publicURL` (`SHOP_BUG=public-http`: a plain-http host).
    var returnBase: String? = nil
    /// Whether `amount.value` is sent as a number (`SHOP_BUG=amount-as-number`: wrong, Mollie takes a string).
    var amountAsNumber = false
    /// Whether the key is sent as a live one (`SHOP_BUG=live-key`: the production key in a test setup).
    var liveKey = false
    /// Whether an `authorized` payment is taken as paid (`true` only with `SHOP_BUG=authorized-paid`: wrong, it is
    /// reserved, not captured, providers.md §4.4).
    var authorizedIsPaid = false
    /// How to reach Mollie.
    let http: ProviderHTTP

    /// Mollie's payment statuses as order statuses.
    static let statuses: [String: OrderStatus] = [
        "open": .open, "pending": .pending, "authorized": .pending, "paid": .paid, "failed": .failed,
        "canceled": .canceled, "expired": .expired,
    ]

    /// The headers of every call, plus `extra`.
    private func headers(_ extra: [(String, String)] = []) -> [(String, String)] {
        let key = self.liveKey ? "live_" + self.apiKey.drop { $0 != "_" }.dropFirst() : Substring(self.apiKey)
        return [("Authorization", "Bearer \(key)"), ("Accept", "application/hal+json"), ("User-Agent", "reference-shop/1.0")]
            + extra
    }

    /// The message for an error answer: Mollie's `detail` and `field` when it gave them.
    private static func error(_ status: Int, _ body: JSONValue?) -> ProviderError {
        if let detail = body?["detail"]?.stringValue, !detail.isEmpty {
            let field = body?["field"]?.stringValue.flatMap { $0.isEmpty ? nil : " (field \($0))" } ?? ""
            return ProviderError(description: "Mollie answered \(status): \(detail)\(field)")
        }
        return ProviderError(description: "Mollie answered \(status)")
    }

    /// Creates the payment for `order` (providers.md §4.4) with a new Idempotency-Key; retries once with the same
    /// key when Mollie did not answer or answered 5xx. Answers the payment id, the checkout URL and the status.
    /// - Throws: ``ProviderError`` when Mollie does not create it.
    func create(_ order: Order) async throws -> (paymentID: String, checkoutURL: JSONValue, status: OrderStatus) {
        let amount = try Amount(order.amount, currency: order.currency, zeroDecimal: Amount.zeroDecimalMollie)
        let full: JSONValue = [
            "amount": ["currency": .string(order.currency), "value": self.amountAsNumber ? amount.number : .string(amount.text)],
            "description": .string(order.description),
            "redirectUrl": .string("\(self.returnBase ?? self.publicURL)/return/\(order.id)"),
            "webhookUrl": .string("\(self.publicURL)/webhooks/mollie"),
            "metadata": ["order_id": .string(order.id)],
        ]
        let notified = self.asksForNotifications ? full : full.removing("webhookUrl")
        let payload = self.sendsRedirectURL ? notified : notified.removing("redirectUrl")
        let key = self.sendsIdempotencyKey ? [("Idempotency-Key", UUID().uuidString.lowercased())] : []
        let headers = self.headers([("Content-Type", "application/json")] + key)
        let reply = try await self.http.createRetryingOnce("\(self.baseURL)/payments", headers: headers, body: payload.serialized)
        guard reply.status == 201, let answer = reply.answer, answer.isObject else {
            throw Self.error(reply.status, reply.answer)
        }
        guard case .string(let paymentID)? = answer["id"], paymentID.hasPrefix("tr_") else {
            throw ProviderError(description: "Mollie answered a payment without an id")
        }
        let checkout = answer["_links"]?["checkout"]?["href"] ?? .null
        let status = answer["status"]?.stringValue.flatMap { Self.statuses[$0] } ?? .open
        return (paymentID, checkout, status)
    }

    /// The order status for payment `paymentID`; `nil` when Mollie does not know it (404).
    /// - Throws: ``ProviderError`` when Mollie cannot be reached or answers something else.
    func status(of paymentID: String) async throws -> OrderStatus? {
        let reply = try await self.http.call("GET", "\(self.baseURL)/payments/\(pathSegment(paymentID))", headers: self.headers())
        if reply.status == 404 { return nil }
        guard reply.status == 200, let answer = reply.answer, answer.isObject else {
            throw Self.error(reply.status, reply.answer)
        }
        guard answer["id"] == .string(paymentID) else { throw ProviderError(description: "Mollie answered another payment") }
        guard let status = answer["status"]?.stringValue.flatMap({ Self.statuses[$0] }) else {
            throw ProviderError(description: "Mollie answered an unknown status '\(answer["status"]?.text ?? "")'")
        }
        if self.authorizedIsPaid, answer["status"]?.stringValue == "authorized" { return .paid }
        return status
    }
}
