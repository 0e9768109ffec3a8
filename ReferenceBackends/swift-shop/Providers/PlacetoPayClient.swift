// PlacetoPay WebCheckout (providers.md §1): the shop's client.
import Crypto
import Foundation

/// PlacetoPay WebCheckout, as the shop uses it: create a session, query one, check a notification.
struct PlacetoPayClient: Sendable {
    /// The base `/api/session` is appended to.
    let baseURL: String
    /// The site login.
    let login: String
    /// The site secret key; never logged.
    let secretKey: String
    /// Minutes until a new session expires; `nil` omits `expiration`.
    let expirationMinutes: Int?
    /// The shop's public base URL, for `returnUrl`.
    let publicURL: String
    /// Whether a session names the payer's `ipAddress` and `userAgent` (`false` only with `SHOP_BUG=no-client-info`).
    var sendsClientInfo = true
    /// The base of `returnUrl` when it is not `publicURL` (`SHOP_BUG=public-http`: a plain-http host).
    var returnBase: String? = nil
    /// Seconds the seed lags behind the clock (`SHOP_BUG=stale-seed`: 600, a seed PlacetoPay no longer takes).
    var seedLag: TimeInterval = 0
    /// Whether the tranKey is the legacy SHA-1 one (`SHOP_BUG=sha1-trankey`).
    var sha1TranKey = false
    /// Whether a session names the order in `payment.reference` (`false` only with `SHOP_BUG=no-reference`).
    var sendsReference = true
    /// The raw nonce of every request with `SHOP_BUG=reuse-nonce`; `nil` for a fresh one each time (correct).
    let reusedNonce: [UInt8]?
    /// How to reach PlacetoPay.
    let http: ProviderHTTP

    /// 32 random lowercase hex characters, as ASCII (like the PHP SDK's raw nonce).
    static func randomNonce() -> [UInt8] {
        Array(hex((0..<16).map { _ in UInt8.random(in: 0...255) }).utf8)
    }

    /// A fresh `auth` object (providers.md §1.2): a new raw nonce, the current seed, and
    /// tranKey = Base64(SHA-256(rawNonce + seed + secretKey)).
    func auth() -> JSONValue {
        let rawNonce = self.reusedNonce ?? Self.randomNonce()
        let seed = timestamp(Date().addingTimeInterval(-self.seedLag))
        let material = rawNonce + Array(seed.utf8) + Array(self.secretKey.utf8)
        let digest = self.sha1TranKey ? Data(Insecure.SHA1.hash(data: material)) : Data(SHA256.hash(data: material))
        return [
            "login": .string(self.login), "tranKey": .string(digest.base64EncodedString()),
            "nonce": .string(Data(rawNonce).base64EncodedString()), "seed": .string(seed),
        ]
    }

    /// POSTs `payload` as JSON to `path` under the base URL.
    private func post(_ path: String, _ payload: JSONValue) async throws -> (status: Int, answer: JSONValue?) {
        let headers = [("Content-Type", "application/json"), ("Accept", "application/json"), ("User-Agent", "reference-shop/1.0")]
        return try await self.http.call("POST", "\(self.baseURL)\(path)", headers: headers, body: payload.serialized)
    }

    /// The message for an error answer: PlacetoPay's status, reason and message when it gave them.
    private static func error(_ status: Int, _ body: JSONValue?) -> ProviderError {
        if let result = body?["status"], result.isObject {
            let parts = ["status", "reason", "message"].map { result[$0]?.text ?? "" }
            return ProviderError(description: "PlacetoPay answered \(status): \(parts[0])/\(parts[1]) \(parts[2])")
        }
        return ProviderError(description: "PlacetoPay answered \(status)")
    }

    /// Creates the session for `order` (providers.md §1.3); answers its requestId as a string, the process URL and
    /// the status (`open`).
    /// - Throws: ``ProviderError`` when PlacetoPay does not create it.
    func create(_ order: Order, clientIP: String) async throws -> (paymentID: String, checkoutURL: JSONValue, status: OrderStatus) {
        let amount = try Amount(order.amount, currency: order.currency, zeroDecimal: Amount.zeroDecimalISO)
        var payload: [String: JSONValue] = [
            "auth": self.auth(),
            "locale": "en_US",
            "payment": [
                "reference": .string(order.id), "description": .string(order.description),
                "amount": ["currency": .string(order.currency), "total": amount.number],
            ],
            "returnUrl": .string("\(self.returnBase ?? self.publicURL)/return/\(order.id)"),
            "ipAddress": .string(clientIP.isEmpty ? "127.0.0.1" : clientIP),
            "userAgent": "reference-shop/1.0",
        ]
        if !self.sendsClientInfo { (payload["ipAddress"], payload["userAgent"]) = (nil, nil) }
        if !self.sendsReference { payload["payment"] = payload["payment"]?.removing("reference") }
        if let minutes = self.expirationMinutes {
            let expires = Date().addingTimeInterval(TimeInterval(minutes * 60))
            payload["expiration"] = .string(timestamp(expires))
        }
        let reply = try await self.post("/api/session", .object(payload))
        guard reply.status == 200, let answer = reply.answer, let result = answer["status"], result.isObject,
            result["status"] == "OK"
        else {
            throw Self.error(reply.status, reply.answer)
        }
        guard let requestID = answer["requestId"]?.text, !requestID.isEmpty else {
            throw ProviderError(description: "PlacetoPay answered a session without a requestId")
        }
        return (requestID, answer["processUrl"] ?? .null, .open)
    }

    /// The order status for a query-session answer (providers.md §1.5, the mock's PlacetoPayStatus+Catalog.swift):
    /// APPROVED → paid; PENDING → pending when a transaction is in progress (PENDING at the bank or
    /// PENDING_CONFIRMATION), else open; APPROVED_PARTIAL → pending; REJECTED/EX → expired; REJECTED/?C (payer) and
    /// REJECTED/MC (merchant) → canceled; other REJECTED (XN attempt limit, …) → failed; PARTIAL_EXPIRED → expired.
    /// Anything else (FAILED is a request-level error) → `nil`.
    static func map(status: JSONValue?, payment: JSONValue?) -> OrderStatus? {
        let name = status?["status"]
        let reason = status?["reason"]?.text
        switch name?.stringValue {
        case "APPROVED":
            return .paid
        case "PENDING":
            guard case .array(let transactions)? = payment else { return .open }
            for transaction in transactions {
                if let state = transaction["status"]?["status"]?.stringValue, state == "PENDING" || state == "PENDING_CONFIRMATION" {
                    return .pending
                }
            }
            return .open
        case "APPROVED_PARTIAL":
            return .pending
        case "REJECTED":
            if reason == "EX" { return .expired }
            if reason == "?C" || reason == "MC" { return .canceled }
            return .failed
        case "PARTIAL_EXPIRED":
            return .expired
        default:
            return nil
        }
    }

    /// The order status for session `requestID`, from a query with a fresh `auth`; `nil` when the session is unknown.
    /// - Throws: ``ProviderError`` when PlacetoPay cannot be reached or answers something else.
    func status(of requestID: String) async throws -> OrderStatus? {
        let reply = try await self.post("/api/session/\(pathSegment(requestID))", ["auth": self.auth()])
        if reply.status == 404 { return nil }
        guard reply.status == 200, let answer = reply.answer, answer.isObject else {
            throw Self.error(reply.status, reply.answer)
        }
        guard answer["requestId"]?.text == requestID else {
            throw ProviderError(description: "PlacetoPay answered another session")
        }
        guard let status = Self.map(status: answer["status"], payment: answer["payment"]) else {
            throw Self.error(reply.status, answer)
        }
        return status
    }

    /// Whether a notification's `signature` is right (providers.md §1.9): `sha256:` + SHA-256 hex, or bare SHA-1 hex,
    /// of requestId + status.status + status.date + secretKey over the values exactly as received.
    func isSignatureValid(_ notification: JSONValue) -> Bool {
        guard let requestID = notification["requestId"]?.text, let signature = notification["signature"]?.stringValue,
            let state = notification["status"]?["status"]?.stringValue, let date = notification["status"]?["date"]?.stringValue
        else { return false }
        let message = Array((requestID + state + date + self.secretKey).utf8)
        let expected: String
        let received: Substring
        if signature.hasPrefix("sha256:") {
            expected = hex(SHA256.hash(data: message))
            received = signature.dropFirst("sha256:".count)
        } else {
            expected = hex(Insecure.SHA1.hash(data: message))
            received = signature[...]
        }
        return constantTimeEquals(Array(expected.utf8), Array(received.lowercased().utf8))
    }
}
