// khipu, Instant Payments API 3.0 (providers.md §2): the shop's client.
import Crypto
import Foundation

/// khipu's Instant Payments API 3.0 (providers.md §2), as the shop uses it: create a payment, fetch one, check a
/// notification's `x-khipu-signature`.
struct KhipuClient: Sendable {
    /// The base `/v3/…` is appended to.
    let baseURL: String
    /// The `x-api-key`; never logged.
    let apiKey: String
    /// The account secret notifications are signed with; never logged.
    let secret: String
    /// The shop's public base URL, for `return_url`, `cancel_url` and `notify_url`.
    let publicURL: String
    /// Whether a create names the shop's notification URL (`false` only with `SHOP_BUG=no-notifications`).
    var asksForNotifications = true
    /// The base of `return_url` and `cancel_url` when it is not `publicURL` (`SHOP_BUG=public-http`).
    var returnBase: String? = nil
    /// Whether a create says `notify_api_version: "3.0"` (`false` only with `SHOP_BUG=no-notify-version`).
    var sendsNotifyVersion = true
    /// Whether a create names the order in `transaction_id` (`false` only with `SHOP_BUG=no-transaction-id`).
    var sendsTransactionID = true
    /// Whether half a unit is added to the amount (`SHOP_BUG=clp-decimals`: a floating conversion left decimals).
    var addsHalfUnit = false
    /// Whether `status_detail` is ignored, so every `done` payment is paid (`true` only with
    /// `SHOP_BUG=ignore-status-detail`: wrong, a payer's rejection is `done` too, providers.md §2.5).
    var ignoresStatusDetail = false
    /// How to reach khipu.
    let http: ProviderHTTP

    /// The headers of every call.
    private var headers: [(String, String)] {
        [("x-api-key", self.apiKey), ("Accept", "application/json"), ("User-Agent", "reference-shop/1.0")]
    }

    /// The message for an error answer: khipu's `message` and the fields of `errors` when it gave them.
    private static func error(_ status: Int, _ body: JSONValue?) -> ProviderError {
        let message = body?["message"]?.stringValue ?? ""
        var fields: [String] = []
        if case .array(let errors)? = body?["errors"] { fields = errors.compactMap { $0["field"]?.stringValue } }
        let detail = message.isEmpty ? "" : ": \(message)" + (fields.isEmpty ? "" : " (\(fields.joined(separator: ", ")))")
        return ProviderError(description: "khipu answered \(status)\(detail)")
    }

    /// The order status for a payment's `status` and `status_detail` (providers.md §2.9, §2.12 B3): done → paid,
    /// except a payer's rejection or abuse (failed) and a full refund or reversal (canceled); verifying → pending
    /// (the transfer is made, not yet reconciled); pending → open.
    static func map(status: String?, detail: String?) -> OrderStatus? {
        switch status {
        case "done":
            switch detail {
            case "rejected-by-payer", "marked-as-abuse": return .failed
            case "fully-refunded", "reversed": return .canceled
            default: return .paid
            }
        case "verifying": return .pending
        case "pending": return .open
        default: return nil
        }
    }

    /// Creates the payment for `order` (providers.md §2.4), asking for API 3.0 notifications; answers its
    /// `payment_id`, the payment URL and the status (`open`).
    /// - Throws: ``ProviderError`` when khipu does not create it.
    func create(_ order: Order) async throws -> (paymentID: String, checkoutURL: JSONValue, status: OrderStatus) {
        let amount = try Amount(order.amount, currency: order.currency, zeroDecimal: Amount.zeroDecimalISO)
        let full: JSONValue = [
            "subject": .string(order.description), "currency": .string(order.currency),
            "amount": self.addsHalfUnit ? .double((Double(amount.text) ?? 0) + 0.5) : amount.number,
            "transaction_id": .string(order.id),
            "return_url": .string("\(self.returnBase ?? self.publicURL)/return/\(order.id)"),
            "cancel_url": .string("\(self.returnBase ?? self.publicURL)/return/\(order.id)"),
            "notify_url": .string("\(self.publicURL)/webhooks/khipu"), "notify_api_version": "3.0",
        ]
        var payload = self.asksForNotifications ? full : full.removing("notify_url").removing("notify_api_version")
        if !self.sendsNotifyVersion { payload = payload.removing("notify_api_version") }
        if !self.sendsTransactionID { payload = payload.removing("transaction_id") }
        let reply = try await self.http.call(
            "POST", "\(self.baseURL)/v3/payments", headers: self.headers + [("Content-Type", "application/json")], body: payload.serialized)
        guard reply.status == 200 || reply.status == 201, let answer = reply.answer, answer.isObject else {
            throw Self.error(reply.status, reply.answer)
        }
        guard let paymentID = answer["payment_id"]?.stringValue, !paymentID.isEmpty else {
            throw ProviderError(description: "khipu answered a payment without a payment_id")
        }
        return (paymentID, answer["payment_url"] ?? .null, .open)
    }

    /// The order status for payment `paymentID`; `nil` when khipu does not know it (404).
    /// - Throws: ``ProviderError`` when khipu cannot be reached or answers something else.
    func status(of paymentID: String) async throws -> OrderStatus? {
        let reply = try await self.http.call("GET", "\(self.baseURL)/v3/payments/\(pathSegment(paymentID))", headers: self.headers)
        if reply.status == 404 { return nil }
        guard reply.status == 200, let answer = reply.answer, answer.isObject else { throw Self.error(reply.status, reply.answer) }
        guard answer["payment_id"]?.stringValue == paymentID else { throw ProviderError(description: "khipu answered another payment") }
        guard let status = Self.map(status: answer["status"]?.stringValue, detail: answer["status_detail"]?.stringValue) else {
            throw ProviderError(description: "khipu answered an unknown status '\(answer["status"]?.text ?? "")'")
        }
        if self.ignoresStatusDetail, answer["status"]?.stringValue == "done" { return .paid }
        return status
    }

    /// Whether an API 3.0 notification's `x-khipu-signature` (`t=<ms>,s=<base64>`) is right (providers.md §2.7):
    /// s = Base64(HMAC-SHA256(secret, t + "." + raw body)).
    func isSignatureValid(header: String?, body: [UInt8]) -> Bool {
        guard let header else { return false }
        var t: Substring?
        var s: Substring?
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0].trimmingCharacters(in: .whitespaces) {
            case "t": t = pair[1]
            case "s": s = pair[1]
            default: continue
            }
        }
        guard let t, let s else { return false }
        let mac = HMAC<SHA256>.authenticationCode(for: Array(t.utf8) + Array(".".utf8) + body, using: SymmetricKey(data: Array(self.secret.utf8)))
        return constantTimeEquals(Array(Data(mac).base64EncodedString().utf8), Array(s.utf8))
    }
}
