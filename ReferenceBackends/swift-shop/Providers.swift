// The shop's calls to Mollie (providers.md §4), PlacetoPay (§1), khipu (§2) and MIT (§5), over AsyncHTTPClient.
import AsyncHTTPClient
import _CryptoExtras
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// A provider call that failed: no answer, an unreadable answer, or an error status. Its description is safe to
/// log and to answer (it never holds a key).
struct ProviderError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String
}

/// How the shop reaches the providers: one HTTP request at a time, each with the configured timeout.
struct ProviderHTTP: Sendable {
    /// The client.
    let client: HTTPClient
    /// Seconds allowed per call.
    let timeout: Double
    /// The User-Agent every call carries instead of the clients' own (`SHOP_BUG=app-calls-provider`: a mobile app's,
    /// as when the app calls the provider itself with keys it should not hold); `nil` for the clients' own.
    var userAgent: String? = nil
    /// Whether a retried create gets a new idempotency key (`SHOP_BUG=new-idempotency-key`: wrong, the retry of a
    /// create whose answer was lost must carry the same key).
    var newKeyOnRetry = false

    /// The most a provider's answer may hold.
    static let maxAnswer = 8 << 20

    /// Sends `method url` with `headers` and `body`; answers the status and the body parsed as JSON (`nil` when it
    /// is empty or not JSON).
    /// - Throws: ``ProviderError`` when the provider cannot be reached or its answer cannot be read.
    func call(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8]? = nil) async throws
        -> (status: Int, answer: JSONValue?)
    {
        let reply = try await self.rawCall(method, url, headers: headers, body: body)
        return (reply.status, JSONValue.parse(reply.bytes))
    }

    /// Sends `method url` with `headers` and `body`; answers the status and the body as it came.
    /// - Throws: ``ProviderError`` when the provider cannot be reached or its answer cannot be read.
    func rawCall(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8]? = nil) async throws
        -> (status: Int, bytes: [UInt8], text: String)
    {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers {
            request.headers.add(name: name, value: name.lowercased() == "user-agent" ? self.userAgent ?? value : value)
        }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await self.client.execute(request, timeout: .milliseconds(Int64(self.timeout * 1000)))
            let bytes = Array(try await response.body.collect(upTo: Self.maxAnswer).readableBytesView)
            return (Int(response.status.code), bytes, String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ProviderError(description: "cannot reach the provider: \(Self.reason(error))")
        }
    }

    /// POSTs a create to `url`, and once more, after half a second, when the provider did not answer or answered
    /// 5xx: safe only with an idempotency key in `headers`, which makes the provider answer the same payment.
    /// - Throws: ``ProviderError`` when the second attempt cannot reach the provider either.
    func createRetryingOnce(_ url: String, headers: [(String, String)], body: [UInt8]) async throws -> (status: Int, answer: JSONValue?) {
        do {
            let reply = try await self.call("POST", url, headers: headers, body: body)
            guard reply.status >= 500 else { return reply }
        } catch {}
        try? await Task.sleep(for: .milliseconds(500))
        let retried =
            !self.newKeyOnRetry
            ? headers
            : headers.map { header in
                header.0.lowercased().hasSuffix("idempotency-key") ? (header.0, UUID().uuidString.lowercased()) : header
            }
        return try await self.call("POST", url, headers: retried, body: body)
    }

    /// A client that fails at once when a provider refuses the connection (AsyncHTTPClient's default is to retry
    /// until the deadline), connecting for at most `timeout` seconds.
    static func client(timeout: Double) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .milliseconds(Int64(timeout * 1000))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Why a call failed, in a few words: `[Errno 111] Connection refused`, `timed out`, or the error itself.
    static func reason(_ error: any Error) -> String {
        if let io = error as? IOError {
            return "[Errno \(io.errnoCode)] \(String(cString: strerror(io.errnoCode)))"
        }
        if let http = error as? HTTPClientError, [.deadlineExceeded, .connectTimeout, .readTimeout].contains(http) {
            return "timed out"
        }
        return "\(error)"
    }
}

/// The characters a path segment keeps as they are: ASCII letters and digits and `_.-~`.
private let pathSegmentCharacters = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-~")

/// Percent-encodes `text` for one path segment: everything but ASCII letters, digits and `_.-~`.
func pathSegment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: pathSegmentCharacters) ?? text
}

/// `bytes` as lowercase hex, two digits each.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

// MARK: - Mollie

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

// MARK: - PlacetoPay

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

/// Whether `a` and `b` are equal, in a time that depends only on their lengths.
func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}

// MARK: - khipu

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

// MARK: - MIT

/// MIT Centro de Pagos, WebPay Plus (providers.md §5.2, §5.3, §5.11), as the shop uses it: generate a payment link,
/// read the encrypted result MIT posts to the response URL. Both ways are AES-128-CBC under the merchant's key (32 hex
/// characters), a random IV before the ciphertext, PKCS7, Base64. WebPay Plus has no status query: the result is
/// the only truth, and only a result that decrypts with the key is one.
struct MITClient: Sendable {
    /// The base `/gen` is appended to.
    let baseURL: String
    let idCompany: String
    let idBranch: String
    let user: String
    /// Never logged.
    let password: String
    let data0: String
    /// The key, 32 hex characters; never logged.
    let keyHex: String
    /// Whether the link request's data is encrypted (`false` only with `SHOP_BUG=plain-mit`).
    var encrypts = true
    /// One IV for every message (`SHOP_BUG=reuse-iv`: wrong, §5.1 draws a random one per message); `nil` for a new one.
    var fixedIV: [UInt8]? = nil
    /// Whether the amount drops its trailing zeros (`SHOP_BUG=mit-amount-format`: `100.5`, not the documented `100.50`).
    var shortAmount = false
    /// One reference for every link (`SHOP_BUG=reuse-reference`); `nil` for the order's id.
    var fixedReference: String? = nil
    /// How to reach MIT.
    let http: ProviderHTTP

    /// The key's bytes.
    private var key: SymmetricKey? {
        let characters = Array(self.keyHex.utf8)
        guard characters.count == 32 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: characters[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return SymmetricKey(data: bytes)
    }

    /// `text` encrypted: Base64(IV + AES-128-CBC(text)).
    func encrypt(_ text: String) throws -> String {
        guard let key else { throw ProviderError(description: "MIT_KEY must be 32 hex characters") }
        let iv = self.fixedIV ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
        let sealed = try AES._CBC.encrypt(Array(text.utf8), using: key, iv: AES._CBC.IV(ivBytes: iv))
        return Data(iv + sealed).base64EncodedString()
    }

    /// The text of a Base64 blob (line breaks dropped, a space read as `+`, §5.11 A2); `nil` when it does not
    /// decrypt with the key.
    func decrypt(_ blob: String) -> String? {
        // By scalar: "\r\n" is one Character, which a Character filter for "\r" or "\n" would keep.
        var scalars = String.UnicodeScalarView()
        for scalar in blob.unicodeScalars where !["\r", "\n", "\t"].contains(scalar) { scalars.append(scalar == " " ? "+" : scalar) }
        let cleaned = String(scalars)
        guard let key, let data = Data(base64Encoded: cleaned), data.count > 16, (data.count - 16) % 16 == 0,
            let opened = try? AES._CBC.decrypt(Array(data.dropFirst(16)), using: key, iv: AES._CBC.IV(ivBytes: Array(data.prefix(16))))
        else { return nil }
        return String(bytes: opened, encoding: .utf8)
    }

    /// The text of element `name` in `xml` (the first one), unescaped; `nil` when it is absent.
    static func element(_ name: String, in xml: String) -> String? {
        if xml.contains("<\(name)/>") { return "" }
        guard let open = xml.range(of: "<\(name)>"), let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex) else {
            return nil
        }
        return String(xml[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `text` escaped for an XML element.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Generates the payment link for `order` (§5.2): the reference is the order's id; answers the link's id, its URL
    /// and the status (`open`).
    /// - Throws: ``ProviderError`` when MIT does not generate it.
    func create(_ order: Order) async throws -> (paymentID: String, checkoutURL: JSONValue, status: OrderStatus) {
        let amount = try Amount(order.amount, currency: order.currency, zeroDecimal: [])
        let e = Self.escape
        let document =
            "<P><business><id_company>\(e(self.idCompany))</id_company><id_branch>\(e(self.idBranch))</id_branch>"
            + "<user>\(e(self.user))</user><pwd>\(e(self.password))</pwd></business><url><reference>\(e(self.fixedReference ?? order.id))</reference>"
            + "<amount>\(self.shortAmount && amount.text.contains(".") ? String(amount.text.reversed().drop { $0 == "0" }.reversed()) : amount.text)</amount><moneda>\(e(order.currency))</moneda><canal>W</canal><omitir_notif_default>1</omitir_notif_default>"
            + "</url><version>IntegraWPP</version></P>"
        let data = self.encrypts ? try self.encrypt(document) : e(document)
        let envelope = "<pgs><data0>\(e(self.data0))</data0><data>\(data)</data></pgs>"
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "xml", value: envelope)]
        // Form encoding: `+` and the other reserved characters of Base64 percent-encoded.
        let body = (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let reply = try await self.http.rawCall(
            "POST", "\(self.baseURL)/gen", headers: [("Content-Type", "application/x-www-form-urlencoded"), ("User-Agent", "reference-shop/1.0")],
            body: Array(body.utf8))
        guard reply.status == 200, let answer = self.decrypt(reply.text) else {
            throw ProviderError(description: "MIT answered \(reply.status): \(reply.text.prefix(120))")
        }
        guard Self.element("cd_response", in: answer) == "success", let url = Self.element("nb_url", in: answer), !url.isEmpty else {
            let code = Self.element("cd_response", in: answer) ?? "?"
            throw ProviderError(description: "MIT refused the link: \(code) \(Self.element("nb_response", in: answer) ?? "")")
        }
        let id = url.split(separator: "/").last.map(String.init) ?? url
        return (id, .string(url), .open)
    }

    /// The order's status in a result MIT posted (§5.3, §5.11 D1): `approved` → paid, `denied` and `error` → failed;
    /// with the reference and the amount it names. `nil` when the blob does not decrypt with the key.
    func read(result blob: String) -> (reference: String, status: OrderStatus, amount: String)? {
        guard let xml = self.decrypt(blob), let reference = Self.element("reference", in: xml), let response = Self.element("response", in: xml)
        else { return nil }
        return (reference, response == "approved" ? .paid : .failed, Self.element("amount", in: xml) ?? "")
    }
}

// MARK: - Yuno

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
