import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

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
        HTTPResponseData.json(status: status, value).response
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
        context.refreshGateway()
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
    // Not optimised: Swift 6.3.1's LLVM crashes splitting this route's coroutine in release builds (docs/release-build.md).
    @_optimize(none)
    static func createPayment(_ request: Request, _ context: YunoContext) async throws -> Response {
        try authenticate(request)
        let body = try await Self.body(request)
        guard let key = request.headers[idempotencyHeader], !key.isEmpty else { throw YunoFailure.invalid() }
        context.refreshGateway()
        try YunoState.validatePayment(body, account: Self.account, maxAmountDigits: context.store.withState { $0.gateway.maxAmountDigits })
        // A token a create already spent, sent again under another key: the retry of a create whose answer was
        // lost, made unsafe (§3.2: only the same key answers the payment already made).
        let tokenId = body["payment_method"]?["token"]?.stringValue ?? ""
        if !tokenId.isEmpty, let previous = context.store.withState({ $0.tokens[tokenId]?.spentUnder }), previous != key {
            MerchantFindings.report(
                YunoProvider.MerchantRules.idempotencyKeyChanged,
                "token \(tokenId) was spent by a payment created under another X-Idempotency-Key; this create has a new one")
        }
        let fingerprint = RequestFingerprint(method: "POST", path: "/yuno/v1/payments", body: [])
        let outcome = await context.environment.idempotency.perform(IdempotencyKey(provider: "yuno", key: key), fingerprint: fingerprint) {
            Self.runCreate(body, key: key, context)
        }
        if case .created(let stored) = outcome, stored.status == 201, !tokenId.isEmpty {
            context.store.withState { $0.tokens[tokenId]?.spentUnder = key }
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
    // Not optimised: Swift 6.3.1's LLVM crashes splitting this route's coroutine in release builds (docs/release-build.md).
    @_optimize(none)
    static func afterPayment(
        _ request: Request, _ requestContext: BasicRequestContext, _ context: YunoContext,
        operation: String
    ) async throws -> Response {
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
        context.refreshGateway()
        let fingerprint = RequestFingerprint(method: "POST", path: "/yuno/v1/payments/\(id)/\(operation)", body: [])
        let now = context.environment.clock.now()
        let outcome = await context.environment.idempotency.perform(
            IdempotencyKey(provider: "yuno", key: operation + " " + key), fingerprint: fingerprint
        ) { () -> HTTPResponseData in
            do throws(YunoFailure) {
                let (_, answer) = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in
                    operation == "capture" ? try state.capture(id, transaction: transaction, body, now: now) : try state.cancelOrRefund(id, body, now: now)
                }
                return HTTPResponseData.json(status: operation == "capture" ? 200 : 201, answer)
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
            return HTTPResponseData.json(status: 201, payment.json(retrieved: false))
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
