import Foundation
import Hummingbird
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import Synchronization

/// The stateful mock of ``TinyPayProvider``: verifies the header signature, keeps payments, honours idempotency keys
/// (the host's shared idempotency store) and notifies the payment's `webhookUrl` when the payer acts, through the
/// host's webhook dispatcher: retried 1 and 5 minutes after a failed attempt, on the mock clock. Unknown paths under
/// `/tinypay` answer TinyPay's own JSON 404.
final class TinyPayMock: ProviderMock {
    /// One payment.
    struct Payment: Sendable {
        var id: String
        var status: String
        var amount: Int
        var currency: String
        var reference: String
        var webhookUrl: String?

        var json: Value {
            ["id": .string(id), "status": .string(status), "amount": .int(amount), "currency": .string(currency), "reference": .string(reference)]
        }
    }

    /// The state.
    struct State: Sendable {
        var payments: [String: Payment] = [:]
        var next = 1
    }

    /// When a failed webhook is sent again, after the first attempt.
    static let webhookRetries = WebhookRetrySchedule(retriesAfter: [.seconds(60), .seconds(300)])

    /// The adapter.
    var provider: any Provider { TinyPayProvider() }
    /// `open`, then `paid`, `failed` or `canceled`.
    var nativeStates: [String] { TinyPayStatus.spellings }

    private let state = Mutex(State())

    /// The provider routes under `/tinypay/v1` and the declared control actions.
    func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        let adapter = TinyPayProvider()
        router.post("tinypay/v1/payments") { request, _ -> Response in
            let body = try await Self.bytes(request)
            if let failure = Self.authenticate(request, body: body, adapter: adapter) { return failure }
            let pairs = FormText.decodePairs(String(decoding: body, as: UTF8.self))
            let form = Dictionary(pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            guard let text = form["amount"], let amount = Int(text), amount > 0 else {
                return Self.error(.unprocessableContent, "invalid_amount", "amount must be a positive integer")
            }
            let create = { () -> HTTPResponseData in
                let payment: Payment = self.state.withLock { state in
                    let payment = Payment(
                        id: "tp_\(state.next)", status: TinyPayStatus.open.rawValue, amount: amount, currency: form["currency"] ?? "EUR",
                        reference: form["reference"] ?? "", webhookUrl: form["webhookUrl"])
                    state.next += 1
                    state.payments[payment.id] = payment
                    return payment
                }
                return HTTPResponseData.json(status: 201, JSONText.encode(payment.json))
            }
            guard let key = Self.header(request, "Idempotency-Key") else { return create().response }
            let outcome = await environment.idempotency.perform(
                IdempotencyKey(provider: "tinypay", key: key),
                fingerprint: RequestFingerprint(method: "POST", path: request.uri.path, body: body), create)
            guard let stored = outcome.stored else {
                return Self.error(.conflict, "idempotency_conflict", "the key was used for another request")
            }
            return stored.response
        }
        router.get("tinypay/v1/payments/{id}") { request, context -> Response in
            if let failure = Self.authenticate(request, body: [], adapter: adapter) { return failure }
            let id = context.parameters.get("id") ?? ""
            guard let payment = self.state.withLock({ $0.payments[id] }) else {
                return Self.error(.notFound, "not_found", "no payment '\(id)'")
            }
            return Self.json(payment.json)
        }
        ControlActionRoutes.register(
            adapter,
            handlers: [
                "payer/pay": { request in
                    let members = try await Self.object(request)
                    let result = members["result"]?.interpolated ?? "paid"
                    guard ["paid", "failed", "canceled"].contains(result) else {
                        throw MockHTTPError(.badRequest, "'result' must be paid, failed or canceled, got '\(result)'")
                    }
                    let payment = try self.move(members["id"]?.interpolated ?? "", to: result)
                    if let url = payment.webhookUrl {
                        let body = Array(JSONText.encode(["id": .string(payment.id), "status": .string(payment.status)]).utf8)
                        let signature = TinyPayProvider.signature(
                            key: adapter.mockCredentials["apiKey"] ?? "", method: "POST", path: "/webhook", body: body)
                        _ = await environment.webhooks.deliver(
                            Webhook(
                                provider: "tinypay", url: url,
                                headers: [("Content-Type", "application/json"), (TinyPayProvider.signatureHeader, signature)],
                                body: body, schedule: Self.webhookRetries))
                    }
                    return Self.json(payment.json)
                },
                "mock/force": { request in
                    let members = try await Self.object(request)
                    return Self.json(try self.move(members["id"]?.interpolated ?? "", to: members["status"]?.interpolated ?? "").json)
                },
            ], on: router)
    }

    /// TinyPay's `{error: {code, message}}` for anything no route serves.
    func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData {
        HTTPResponseData.json(status: 404, JSONText.encode(["error": ["code": "not_found", "message": .string("no route \(path)")]]))
    }

    /// Moves an open payment to a new status.
    private func move(_ id: String, to status: String) throws -> Payment {
        let moved: Payment? = try self.state.withLock { state in
            guard var payment = state.payments[id] else { return nil }
            guard payment.status == "open" else { throw MockHTTPError(.conflict, "payment '\(id)' is \(payment.status), not open") }
            payment.status = status
            state.payments[id] = payment
            return payment
        }
        guard let moved else { throw MockHTTPError(.notFound, "no payment '\(id)'") }
        return moved
    }

    /// Forgets every payment.
    func reset() async {
        state.withLock { $0 = State() }
    }

    /// `nil` when the merchant and signature headers are right, else the error answer.
    private static func authenticate(_ request: Request, body: [UInt8], adapter: TinyPayProvider) -> Response? {
        let merchant = header(request, TinyPayProvider.merchantHeader)
        guard merchant == adapter.mockCredentials["merchant"] else {
            return error(.unauthorized, "unknown_merchant", "no such merchant")
        }
        let path = String(request.uri.path.dropFirst("/tinypay".count))
        let expected = TinyPayProvider.signature(
            key: adapter.mockCredentials["apiKey"] ?? "", method: request.method.rawValue, path: path, body: body)
        guard header(request, TinyPayProvider.signatureHeader) == expected else {
            return error(.unauthorized, "invalid_signature", "the signature does not match")
        }
        return nil
    }

    private static func header(_ request: Request, _ name: String) -> String? {
        request.headers.first { $0.name.canonicalName == name.lowercased() }?.value
    }

    private static func bytes(_ request: Request) async throws -> [UInt8] {
        Array(buffer: try await request.body.collect(upTo: 1 << 20))
    }

    private static func object(_ request: Request) async throws -> [String: Value] {
        guard case .object(let members)? = JSONText.parse(try await bytes(request)) else {
            throw MockHTTPError(.badRequest, "expected a JSON object")
        }
        return members
    }

    private static func json(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: JSONText.encode(value))))
    }

    private static func error(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        json(["error": ["code": .string(code), "message": .string(message)]], status: status)
    }
}
