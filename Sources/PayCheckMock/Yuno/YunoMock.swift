import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders
import Synchronization

/// The stateful mock of the Yuno API in sandbox (providers.md §3, corrected by §3.13), under `/yuno/v1`: the two key
/// headers, customers, checkout sessions (`used`) and their payment methods, single-use one-time tokens, payments
/// driven by the test gateway's cards and the description trick through every status × sub_status of §3.6 (captures,
/// cancel-or-refund, the payer in the SDK, the provider's later answers, PIX expiry on the mock clock),
/// `X-Idempotency-Key` through the shared store, the webhooks API and signed webhooks with the 7-attempt schedule
/// (§3.8), and the `{code, messages}` error envelope.
public struct YunoMock: ProviderMock {
    public var provider: any Provider { YunoProvider() }
    /// Every status of §3.6; each is reached by a case of `Suites/yuno/outcomes.yaml`.
    public var nativeStates: [String] { YunoTransitions.pairs.keys.sorted() }

    let store: YunoStore

    public init() { self.init(random: { UInt64.random(in: .min ... .max) }) }
    public init(random: @escaping @Sendable () -> UInt64) { self.store = YunoStore { YunoState(random: random) } }

    public func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        let context = YunoContext(store: store, environment: environment)
        YunoAPIRoutes(context: context).register(on: router)
        YunoControlRoutes(context: context).register(on: router)
        ProviderNotFoundRoutes.register(on: router, provider: "yuno", environment: environment) { _, _ in
            // Unknown paths: 404 NOT_FOUND "Not Found" (§3.13 P1-11).
            YunoFailure(404, "NOT_FOUND", "Not Found").data
        }
    }

    public func reset() async { store.reset() }
}

extension YunoContext {
    /// The retry schedule of §3.8 (§3.13 P3-28): 7 attempts, at +5 min, +50 min, +6 h, +24 h, +48 h and +96 h after
    /// the first; only a 2xx acknowledges (the docs say 200).
    static let retries = WebhookRetrySchedule(retriesAfter: [300, 3000, 21_600, 86_400, 172_800, 345_600].map { .seconds($0) })

    /// Sends the payment's webhook to every active webhook whose `payment_triggers` include the latest transaction's
    /// type (§3.8, §3.13 P1-13/P1-14): `{type, type_event, account_id, retry, version: 2, data{idempotency_key,
    /// payment}}` with `x-api-key`, `x-secret` and, with an HMAC secret, `x-hmac-signature` over the exact bytes. The
    /// body carries the attempt's `retry` counter (0 first), so each attempt is rendered and signed anew; the
    /// idempotency key (the payment's) stays the same, so a merchant de-duplicates on `type_event` + key.
    func notify(_ payment: YunoPayment) async {
        let hooks = store.withState { $0.hooks(for: payment.trigger) }
        let paymentJSON = payment.json(retrieved: true)
        let typeEvent = payment.typeEvent
        for hook in hooks {
            let render: @Sendable (Int) -> (headers: [(name: String, value: String)], body: [UInt8]) = { attempt in
                let body = Value.object([
                    "type": "payment", "type_event": .string(typeEvent), "account_id": payment.body["account_id"] ?? .null,
                    "retry": .int(attempt - 1), "version": .int(2),
                    "data": .object(["idempotency_key": .string(payment.idempotencyKey), "payment": paymentJSON]),
                ])
                let bytes = Array(JSONText.encode(body).utf8)
                var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
                if let key = hook.json["api_key"]?.stringValue { headers.append(("x-api-key", key)) }
                if let secret = hook.json["secret"]?.stringValue { headers.append(("x-secret", secret)) }
                if let hmac = hook.json["hmac_client_secret"]?.stringValue {
                    headers.append(("x-hmac-signature", YunoWebhookSignature.sign(body: bytes, secret: hmac)))
                }
                return (headers, bytes)
            }
            let first = render(1)
            var webhook = Webhook(provider: "yuno", url: hook.url, headers: first.headers, body: first.body, schedule: Self.retries)
            webhook.render = render
            let store = self.store
            let state = payment.key
            await environment.webhooks.deliver(webhook) { attempt in
                let sent = render(attempt.attempt)
                let entry = Value.object([
                    "payment_id": .string(payment.id), "webhook_id": .string(hook.id), "type_event": .string(typeEvent),
                    "state": .string(state), "attempt": .int(attempt.attempt), "retry": .int(attempt.attempt - 1),
                    "responseStatus": attempt.status.map { .int($0) } ?? .null, "delivered": .bool(attempt.delivered),
                    "sentAt": .string(ISOTimestamp.format(attempt.sentAt)),
                    "headers": .object(Dictionary(sent.headers.map { ($0.name.lowercased(), Value.string($0.value)) }, uniquingKeysWith: { $1 })),
                    "body": .string(String(decoding: sent.body, as: UTF8.self)),
                ])
                store.withState { $0.webhookLog.append(entry) }
            }
        }
    }

    /// The mock-clock jobs of a new payment: the gateway's late answer, the PIX QR's expiry, the wallet's PSP timeout.
    func scheduleJobs(for payment: YunoPayment) {
        let context = self
        let id = payment.id
        if payment.key == "CREATED/CREATED", payment.method == "CARD" {
            let latency = store.withState { $0.gateway.latency }
            environment.scheduler.schedule(at: payment.createdAt.addingTimeInterval(latency), label: "yuno gateway \(id)") {
                let now = context.environment.clock.now()
                if let settled = context.store.withState({ $0.settleLate(id, now: now) }) { await context.notify(settled) }
            }
        }
        if let expiresAt = payment.expiresAt {
            environment.scheduler.schedule(at: expiresAt, label: "yuno expiry \(id)") {
                let now = context.environment.clock.now()
                if let expired = context.store.withState({ $0.expire(id, now: now) }) { await context.notify(expired) }
            }
        }
    }
}

/// The Yuno mock's state in the shared store.
typealias YunoStore = ProviderStateStore<YunoState>

struct YunoContext: Sendable {
    let store: YunoStore
    let environment: MockEnvironment
}

/// The API routes under `/yuno/v1` (providers.md §3.3).
struct YunoAPIRoutes: Sendable {
    let context: YunoContext

    static let idempotencyHeader = HTTPFields.Element.Name("X-Idempotency-Key")!
    static let publicKeyHeader = HTTPFields.Element.Name("public-api-key")!
    static let privateKeyHeader = HTTPFields.Element.Name("private-secret-key")!
    static let account = YunoProvider().mockCredentials["accountId"] ?? ""

    func register(on router: Router<BasicRequestContext>) {
        let context = self.context
        router.post("yuno/v1/customers") { request, _ in try await Self.createCustomer(request, context) }
        router.post("yuno/v1/checkout/sessions") { request, _ in try await Self.createSession(request, context) }
        router.get("yuno/v1/checkout/sessions/{id}") { request, requestContext in try await Self.getSession(request, requestContext, context) }
        router.post("yuno/v1/checkout/sessions/{id}/token") { request, requestContext in
            try await Self.createToken(request, requestContext, context)
        }
        router.get("yuno/v1/checkout/sessions/{id}/payment-methods") { request, requestContext in
            try Self.authenticate(request, message: "Invalid credentials")
            let id = Self.id(requestContext)
            return Self.json(try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.paymentMethods(session: id) }, status: 200)
        }
        router.post("yuno/v1/payments") { request, _ in try await Self.createPayment(request, context) }
        router.get("yuno/v1/payments") { request, _ in
            try Self.authenticate(request)
            guard let order = request.uri.queryParameters.get("merchant_order_id"), !order.isEmpty else { throw YunoFailure.invalid() }
            return Self.json(context.store.withState { $0.payments(order: order) }, status: 200)
        }
        router.get("yuno/v1/payments/{id}") { request, requestContext in try await Self.getPayment(request, requestContext, context) }
        for method in [HTTPRequest.Method.put, .delete, .patch] {
            // A known path with a method it does not serve: 405 UNSUPPORTED_METHOD (§3.7), decided before the keys.
            router.on("yuno/v1/payments/{id}", method: method) { _, _ -> Response in
                throw YunoFailure(405, "UNSUPPORTED_METHOD", "Unsupported method")
            }
        }
        router.post("yuno/v1/payments/{id}/cancel-or-refund") { request, requestContext in
            try await Self.afterPayment(request, requestContext, context, operation: "cancel-or-refund")
        }
        router.post("yuno/v1/payments/{id}/transactions/{transaction}/capture") { request, requestContext in
            try await Self.afterPayment(request, requestContext, context, operation: "capture")
        }
        YunoWebhookRoutes(context: context).register(on: router)
    }

    /// Both keys must be the sandbox account's (§3.2); anything else — missing, wrong, swapped, a production key —
    /// is 401 `INVALID_CREDENTIALS` (§3.7, §3.13 P1-20). The message's case differs per page (§3.13 P2-18).
    static func authenticate(_ request: Request, message: String = "Invalid Credentials") throws(YunoFailure) {
        let credentials = YunoProvider().mockCredentials
        guard request.headers[publicKeyHeader] == credentials["publicApiKey"],
            request.headers[privateKeyHeader] == credentials["privateSecretKey"]
        else { throw YunoFailure(401, "INVALID_CREDENTIALS", message) }
    }

    static func body(_ request: Request) async throws -> [String: Value] {
        let bytes = try await ControlRoutes.body(of: request)
        return try parse(bytes)
    }

    static func parse(_ bytes: [UInt8]) throws(YunoFailure) -> [String: Value] {
        guard !bytes.isEmpty else { return [:] }
        guard let object = JSONText.parse(bytes)?.objectValue else { throw .invalid() }
        return object
    }

    static func json(_ value: Value, status: Int) -> Response {
        HTTPResponseData.json(status: status, JSONText.encode(value)).response
    }

    static func id(_ context: BasicRequestContext) -> String { context.parameters.get("id") ?? "" }

    static func createCustomer(_ request: Request, _ context: YunoContext) async throws -> Response {
        try authenticate(request)
        let body = try await Self.body(request)
        let now = context.environment.clock.now()
        let customer = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.createCustomer(body, now: now) }
        return json(customer, status: 201)
    }

    static func createSession(_ request: Request, _ context: YunoContext) async throws -> Response {
        try authenticate(request, message: "Invalid credentials")
        let body = try await Self.body(request)
        let now = context.environment.clock.now()
        let session = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in
            try state.createSession(body, account: Self.account, now: now)
        }
        return json(session, status: 200)
    }

    static func getSession(_ request: Request, _ requestContext: BasicRequestContext, _ context: YunoContext) async throws -> Response {
        try authenticate(request, message: "Invalid credentials")
        let id = Self.id(requestContext)
        return json(try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.session(id) }, status: 200)
    }

    static func createToken(_ request: Request, _ requestContext: BasicRequestContext, _ context: YunoContext) async throws -> Response {
        try authenticate(request, message: "Invalid credentials")
        let body = try await Self.body(request)
        let id = Self.id(requestContext)
        let token = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.createToken(session: id, body) }
        return json(token, status: 201)
    }

    /// `POST /payments` → 201 (§3.5) under `X-Idempotency-Key` (§3.2, §3.13 P1-5, P2-21): a malformed request is
    /// refused before the key is taken; the same key again answers the original payment whatever the new body;
    /// while the first is running `REQUEST_IN_PROCESS`; after a first request that failed without a payment,
    /// `IDEMPOTENCY_DUPLICATED`.
    static func createPayment(_ request: Request, _ context: YunoContext) async throws -> Response {
        try authenticate(request)
        let body = try await Self.body(request)
        guard let key = request.headers[idempotencyHeader], !key.isEmpty else { throw YunoFailure.invalid() }
        try YunoState.validatePayment(body, account: Self.account)
        let fingerprint = RequestFingerprint(method: "POST", path: "/yuno/v1/payments", body: [])
        let outcome = await context.environment.idempotency.perform(IdempotencyKey(provider: "yuno", key: key), fingerprint: fingerprint) {
            Self.runCreate(body, key: key, context)
        }
        if case .created(let stored) = outcome, stored.status == 201, let id = JSONText.parse(stored.body)?["id"]?.stringValue,
            let payment = context.store.withState({ $0.payments[id] })
        {
            context.scheduleJobs(for: payment)
            await context.notify(payment)
        }
        return try Self.answer(outcome)
    }

    /// `cancel-or-refund` (§3.13 P1-9) and `capture` (§3.13 P2-22): `X-Idempotency-Key` required (§3.13 P2-21), keys
    /// scoped to the operation; a body missing its required field is refused before the key is taken.
    static func afterPayment(_ request: Request, _ requestContext: BasicRequestContext, _ context: YunoContext,
                             operation: String) async throws -> Response {
        try authenticate(request, message: operation == "capture" ? "Invalid Credentials" : "Invalid credentials")
        let body = try await Self.body(request)
        guard let key = request.headers[idempotencyHeader], !key.isEmpty else { throw YunoFailure.invalid() }
        let id = Self.id(requestContext)
        let transaction = requestContext.parameters.get("transaction") ?? ""
        // Required fields (cancel-or-refund: reason, §3.13 P1-9; capture: merchant_reference, reason, amount, the
        // Capture Authorization page); which code a missing one gets is not documented: MISSING_PARAMETERS with the
        // list, the table's wording (§3.7).
        let required = operation == "capture" ? ["merchant_reference", "reason", "amount"] : ["reason"]
        let missing = required.filter { body[$0] == nil || body[$0] == .null }
        if !missing.isEmpty {
            throw YunoFailure(400, "MISSING_PARAMETERS", "Missing parameters: list - [" + missing.joined(separator: ", ") + "]")
        }
        let fingerprint = RequestFingerprint(method: "POST", path: "/yuno/v1/payments/\(id)/\(operation)", body: [])
        let now = context.environment.clock.now()
        let outcome = await context.environment.idempotency.perform(
            IdempotencyKey(provider: "yuno", key: operation + " " + key), fingerprint: fingerprint
        ) { () -> HTTPResponseData in
            do throws(YunoFailure) {
                let (_, answer) = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in
                    operation == "capture" ? try state.capture(id, transaction: transaction, body, now: now) : try state.cancelOrRefund(id, body, now: now)
                }
                return HTTPResponseData.json(status: operation == "capture" ? 200 : 201, JSONText.encode(answer))
            } catch {
                return error.data
            }
        }
        if case .created(let stored) = outcome, stored.status < 300, let payment = context.store.withState({ $0.payments[id] }) {
            await context.notify(payment)
        }
        return try Self.answer(outcome)
    }

    static func runCreate(_ body: [String: Value], key: String, _ context: YunoContext) -> HTTPResponseData {
        let now = context.environment.clock.now()
        do {
            let payment = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in
                try state.createPayment(body, idempotencyKey: key, now: now)
            }
            return HTTPResponseData.json(status: 201, JSONText.encode(payment.json(retrieved: false)))
        } catch {
            return error.data
        }
    }

    static func answer(_ outcome: IdempotencyOutcome<HTTPResponseData>) throws(YunoFailure) -> Response {
        switch outcome {
        case .created(let stored):
            return stored.response
        case .replayed(let stored):
            guard stored.status < 400 else { throw YunoFailure(400, "IDEMPOTENCY_DUPLICATED", "Idempotency is duplicated.") }
            return stored.response
        case .conflict(.inFlight):
            throw YunoFailure(400, "REQUEST_IN_PROCESS", "Request with the same idempotency is already in process. Try again in a few seconds.")
        case .conflict(.differentRequest):
            throw YunoFailure(400, "IDEMPOTENCY_DUPLICATED", "Idempotency is duplicated.")
        }
    }

    /// `GET /payments/{id}`: wrapped as `{"payment": {…}}` (§3.13 decision, P1-7); unknown → 400 `PAYMENT_NOT_FOUND` (§3.7).
    static func getPayment(_ request: Request, _ requestContext: BasicRequestContext, _ context: YunoContext) async throws -> Response {
        try authenticate(request)
        let id = Self.id(requestContext)
        let payment = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.payment(id) }
        return json(.object(["payment": payment.json(retrieved: true)]), status: 200)
    }
}
