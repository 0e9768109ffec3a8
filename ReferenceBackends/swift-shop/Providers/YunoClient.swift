// Yuno (providers.md §3): the shop's client.
import Crypto
import Foundation

/// Yuno's API (providers.md §3), as the shop uses it: a checkout session for the app's SDK, the payment from the
/// one-time token the SDK made, a fetch of it, a webhook's `x-hmac-signature`, and the webhook registration.
struct YunoClient: Sendable {
    /// The API base (`/v1/…` is appended).
    let baseURL: String
    /// `public-api-key`.
    let publicKey: String
    /// `private-secret-key`; never logged.
    let privateKey: String
    /// The account the sessions and payments belong to.
    let accountID: String
    /// The HMAC secret the shop registers for its webhook and checks `x-hmac-signature` with; never logged.
    let webhookSecret: String
    /// The country of every session and payment (ISO 3166-1 alpha-2).
    let country: String
    /// Whether a create carries an `X-Idempotency-Key` (`false` only with `SHOP_BUG=no-idempotency-key`).
    let sendsIdempotencyKey: Bool
    /// Whether a payment names its checkout session (`false` only with `SHOP_BUG=no-checkout-session`).
    var sendsCheckoutSession = true
    /// Whether amounts are sent as text (`true` only with `SHOP_BUG=amount-as-text`: wrong, Yuno takes a number).
    var amountAsText = false
    /// Where the payer comes back after a redirect (`callback_url`), when the shop gives one (`SHOP_BUG=public-http`:
    /// a plain-http host).
    var callbackURL: String? = nil
    /// How to reach Yuno.
    let http: ProviderHTTP

    /// The headers of every call.
    private var headers: [(String, String)] {
        [
            ("public-api-key", self.publicKey), ("private-secret-key", self.privateKey), ("Accept", "application/json"),
            ("Content-Type", "application/json"), ("User-Agent", "reference-shop/1.0"),
        ]
    }

    /// The message for an error answer: Yuno's `code` and first message (§3.7).
    private static func error(_ status: Int, _ body: JSONValue?) -> ProviderError {
        let code = body?["code"]?.stringValue.map { " \($0)" } ?? ""
        let first = if case .array(let messages)? = body?["messages"] { messages.first?.stringValue } else { String?.none }
        let message = first.map { ": \($0)" } ?? ""
        return ProviderError(description: "Yuno answered \(status)\(code)\(message)")
    }

    /// The order status for a payment's `status` (providers.md §3.6; Yuno recommends status + sub_status as the
    /// truth, and every sub_status of these statuses leaves the payment where its status says): SUCCEEDED and the
    /// after-payment states (REFUNDED, IN_DISPUTE, CHARGEBACK, FRAUD) → paid; PENDING (an authorization without
    /// capture, a confirmation, a review) → pending; CREATED and READY_TO_PAY → open; DECLINED, REJECTED and ERROR →
    /// failed; CANCELED → canceled; EXPIRED → expired. VERIFIED (a card check, no money) → `nil`.
    static func map(status: String?) -> OrderStatus? {
        switch status {
        case "SUCCEEDED", "REFUNDED", "IN_DISPUTE", "CHARGEBACK", "FRAUD": .paid
        case "PENDING": .pending
        case "CREATED", "READY_TO_PAY": .open
        case "DECLINED", "REJECTED", "ERROR": .failed
        case "CANCELED": .canceled
        case "EXPIRED": .expired
        default: nil
        }
    }

    /// Registers the shop's webhook for payments (§3.8) with its HMAC secret, at `url`. An existing one with the same
    /// name and URL (409) is fine.
    /// - Throws: ``ProviderError`` when Yuno refuses it.
    func registerWebhook(url: String) async throws {
        let payload: JSONValue = [
            "account_id": .string(self.accountID), "name": "reference-shop", "url": .string(url),
            "hmac_client_secret": .string(self.webhookSecret), "payment_triggers": .array(["PURCHASE", "AUTHORIZE", "CAPTURE", "CANCEL", "REFUND"]),
        ]
        let reply = try await self.http.call("POST", "\(self.baseURL)/v1/webhooks", headers: self.headers, body: payload.serialized)
        guard (200..<300).contains(reply.status) || reply.status == 409 else { throw Self.error(reply.status, reply.answer) }
    }

    /// `amount.value` as the shop sends it: a number (§3.4), or its text with `SHOP_BUG=amount-as-text`.
    private func value(_ amount: Amount) -> JSONValue {
        self.amountAsText ? .string(amount.text) : amount.number
    }

    /// Creates the checkout session for `order` (§3.5) the app's SDK pays in; answers its id and the status (`open`).
    /// - Throws: ``ProviderError`` when Yuno does not create it.
    func create(_ order: Order) async throws -> (paymentID: String, checkoutURL: JSONValue, status: OrderStatus) {
        let amount = try Amount(order.amount, currency: order.currency, zeroDecimal: Amount.zeroDecimalISO)
        let session: JSONValue = [
            "account_id": .string(self.accountID), "merchant_order_id": .string(order.id), "payment_description": .string(order.description),
            "country": .string(self.country), "amount": ["currency": .string(order.currency), "value": self.value(amount)],
        ]
        let payload = session.setting("callback_url", self.callbackURL.map(JSONValue.string))
        let reply = try await self.http.call("POST", "\(self.baseURL)/v1/checkout/sessions", headers: self.headers, body: payload.serialized)
        guard reply.status == 200 || reply.status == 201, let answer = reply.answer, answer.isObject else {
            throw Self.error(reply.status, reply.answer)
        }
        guard let session = answer["checkout_session"]?.stringValue, !session.isEmpty else {
            throw ProviderError(description: "Yuno answered a checkout session without an id")
        }
        return (session, .null, .open)
    }

    /// Creates the payment of `order` in checkout session `session` from the SDK's one-time `token` (§3.5), under
    /// a new X-Idempotency-Key; retries once with the same key when Yuno did not answer or answered 5xx. Answers the
    /// payment id and the status the create answered (sync flows end inside it, §3.6).
    /// - Throws: ``ProviderError`` when Yuno does not create it.
    func pay(_ order: Order, session: String, token: String) async throws -> (paymentID: String, status: OrderStatus?) {
        let amount = try Amount(order.amount, currency: order.currency, zeroDecimal: Amount.zeroDecimalISO)
        let full: JSONValue = [
            "account_id": .string(self.accountID), "description": .string(order.description), "country": .string(self.country),
            "merchant_order_id": .string(order.id), "amount": ["currency": .string(order.currency), "value": self.value(amount)],
            "checkout": ["session": .string(session)], "payment_method": ["token": .string(token)],
        ]
        let payload = self.sendsCheckoutSession ? full : full.removing("checkout")
        let key = self.sendsIdempotencyKey ? [("X-Idempotency-Key", UUID().uuidString.lowercased())] : []
        let reply = try await self.http.createRetryingOnce("\(self.baseURL)/v1/payments", headers: self.headers + key, body: payload.serialized)
        guard reply.status == 200 || reply.status == 201, let answer = reply.answer, answer.isObject else {
            throw Self.error(reply.status, reply.answer)
        }
        guard let id = answer["id"]?.stringValue, !id.isEmpty else { throw ProviderError(description: "Yuno answered a payment without an id") }
        return (id, Self.map(status: answer["status"]?.stringValue))
    }

    /// The order status for payment `paymentID`; `nil` when Yuno does not know it.
    /// - Throws: ``ProviderError`` when Yuno cannot be reached or answers something else.
    func status(of paymentID: String) async throws -> OrderStatus? {
        let reply = try await self.http.call("GET", "\(self.baseURL)/v1/payments/\(pathSegment(paymentID))", headers: self.headers)
        // Yuno answers an unknown payment with 400 PAYMENT_NOT_FOUND (§3.7).
        if reply.status == 404 || reply.answer?["code"]?.stringValue == "PAYMENT_NOT_FOUND" { return nil }
        guard reply.status == 200, let answer = reply.answer, answer.isObject else { throw Self.error(reply.status, reply.answer) }
        let payment = answer["payment"] ?? answer
        guard payment["id"]?.stringValue == paymentID else { throw ProviderError(description: "Yuno answered another payment") }
        return Self.map(status: payment["status"]?.stringValue)
    }

    /// Whether `signature` (`x-hmac-signature`) is Base64(HMAC-SHA256(webhook secret, raw body)) (§3.8).
    func isSignatureValid(_ signature: String?, body: [UInt8]) -> Bool {
        guard let signature, let given = Data(base64Encoded: signature.trimmingCharacters(in: .whitespaces)) else { return false }
        let expected = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(self.webhookSecret.utf8)))
        return constantTimeEquals(Array(expected), Array(given))
    }
}
