import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// The API routes under `/mollie/v2` (providers.md §4.2–§4.5).
struct MollieAPIRoutes: Sendable {
    let context: MollieContext

    static let keyHeader = HTTPFields.Element.Name("Idempotency-Key")!

    func register(on router: Router<BasicRequestContext>) {
        let context = self.context
        router.post("mollie/v2/payments") { request, _ in try await Self.create(request, context) }
        router.get("mollie/v2/payments") { request, _ in try await Self.list(request, context) }
        router.get("mollie/v2/payments/{id}") { request, requestContext in try await Self.get(request, requestContext, context) }
        router.delete("mollie/v2/payments/{id}") { request, requestContext in try await Self.cancel(request, requestContext, context) }
        router.patch("mollie/v2/payments/{id}") { request, requestContext in try await Self.update(request, requestContext, context) }
        router.post("mollie/v2/payments/{id}/refunds") { request, requestContext in try await Self.refund(request, requestContext, context) }
        router.get("mollie/v2/payments/{id}/refunds") { request, requestContext in try await Self.refunds(request, requestContext, context) }
        router.get("mollie/v2/payments/{id}/refunds/{refundId}") { request, requestContext in
            try await Self.getRefund(request, requestContext, context)
        }
        router.delete("mollie/v2/payments/{id}/refunds/{refundId}") { request, requestContext in
            try await Self.cancelRefund(request, requestContext, context)
        }
        router.get("mollie/v2/refunds") { request, _ in try await Self.allRefunds(request, context) }
        router.get("mollie/v2/methods") { request, _ in try await Self.methods(request, context) }
        router.get("mollie/v2/methods/all") { request, _ in try await Self.methods(request, context, all: true) }
        router.get("mollie/v2/methods/{id}") { request, requestContext in try await Self.method(request, requestContext, context) }
        router.get("mollie/checkout/select-method/{token}") { _, requestContext in try await Self.checkoutPage(requestContext, context) }
        // The other pages and images a payment or a method links to (`_links.changePaymentState`, `_links.dashboard`,
        // `image`), served so that every link the mock emits can be followed.
        router.get("mollie/checkout/test-mode/{token}") { _, requestContext in try await Self.checkoutPage(requestContext, context) }
        // The test-mode screen's "Continue" (§4.7): the chosen status, the webhook, and the payer back to the merchant.
        router.post("mollie/checkout/select-method/{token}") { request, requestContext in try await Self.choose(request, requestContext, context) }
        router.post("mollie/checkout/test-mode/{token}") { request, requestContext in try await Self.choose(request, requestContext, context) }
        router.get("mollie/dashboard/org_1/payments/{id}") { _, requestContext in try Self.dashboardPage(requestContext, context) }
        router.get("mollie/images/{file}") { _, requestContext in try Self.image(requestContext) }
    }

    /// The public base of every link: the scheme and host the client used, plus `/mollie` (§4.12 P1-2), after the
    /// scoped root when a merchant's backend came through one (so the links it follows stay in its run's scope).
    static func base(_ request: Request) -> String {
        ScopedRequest.origin(request) + ScopedRequest.baseSuffix + "/mollie"
    }

    /// Checks `Authorization: Bearer <the test key>` (§4.1): anything else, a `live_` key included (the mock is a
    /// test-mode account), is 401 "Unauthorized Request" (§4.12 2.3).
    static func authenticate(_ request: Request) throws(MollieFailure) {
        let expected = "Bearer " + (MollieProvider().mockCredentials["apiKey"] ?? "")
        guard request.headers[.authorization] == expected else {
            throw MollieFailure(code: 401, detail: "Missing authentication, or failed to authenticate")
        }
    }

    static func body(_ request: Request) async throws -> (bytes: [UInt8], object: [String: Value]) {
        let bytes = try await ControlRoutes.body(of: request)
        guard !bytes.isEmpty else { return (bytes, [:]) }
        guard let object = JSONText.parse(bytes)?.objectValue else {
            throw MollieFailure(code: 400, detail: "The request body is not a JSON object")
        }
        // The seed backend sends explicit nulls for absent optional fields (§4.12 P1-8).
        return (bytes, object.filter { $0.value != .null })
    }

    static func id(_ context: BasicRequestContext) -> String { context.parameters.get("id") ?? "" }

    /// `POST /v2/payments` → 201 (§4.2), idempotent by `Idempotency-Key` (§4.12 2.4): a replay answers the stored
    /// response with `Idempotent-Replayed: true`; the key with another request is 400; in flight 409.
    static func create(_ request: Request, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let (bytes, body) = try await Self.body(request)
        let base = Self.base(request)
        let operation = { () throws -> HTTPResponseData in
            let now = context.environment.clock.now()
            let payment = try context.store.withState { (state: inout MollieState) throws(MollieFailure) in try state.create(body, now: now) }
            context.scheduleExpiry(payment)
            var json = payment.json(base: base)
            if case .object(var members) = json, case .object(var links)? = members["_links"] {
                links["documentation"] = MollieFormat.link("https://docs.mollie.com/reference/v2/payments-api/create-payment", type: "text/html")
                members["_links"] = .object(links)
                json = .object(members)
            }
            return HTTPResponseData(status: 201, headers: [("Content-Type", "application/hal+json")], body: JSONText.encodeBytes(json))
        }
        return try await Self.idempotent(request, bytes: bytes, context: context, operation)
    }

    /// Runs a POST through the shared idempotency store when it carries a key.
    static func idempotent(
        _ request: Request, bytes: [UInt8], context: MollieContext, _ operation: @escaping () throws -> HTTPResponseData
    ) async throws -> Response {
        guard let key = request.headers[Self.keyHeader], !key.isEmpty else { return try operation().response }
        let fingerprint = RequestFingerprint(method: "POST", path: request.uri.path, body: bytes)
        switch try await context.environment.idempotency.perform(IdempotencyKey(provider: "mollie", key: key), fingerprint: fingerprint, { try operation() }) {
        case .created(let stored):
            return stored.response
        case .replayed(let stored):
            var response = stored.response
            response.headers[HTTPFields.Element.Name("Idempotent-Replayed")!] = "true"
            return response
        case .conflict(.inFlight):
            throw MollieFailure(code: 409, detail: "Another request with this Idempotency-Key is already being processed.")
        case .conflict(.differentRequest):
            throw MollieFailure(code: 400, detail: "This Idempotency-Key has already been used.")
        }
    }

    static func get(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let payment = try context.store.withState { (state: inout MollieState) throws(MollieFailure) in try state.payment(Self.id(requestContext)) }
        return MollieResponse.hal(payment.json(base: Self.base(request)))
    }

    static func cancel(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let now = context.environment.clock.now()
        let payment = try context.store.withState { (state: inout MollieState) throws(MollieFailure) in try state.cancel(Self.id(requestContext), now: now) }
        await context.notify(payment)
        return MollieResponse.hal(payment.json(base: Self.base(request)))
    }

    static func update(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let body = try await Self.body(request).object
        let payment = try context.store.withState { (state: inout MollieState) throws(MollieFailure) in try state.update(Self.id(requestContext), body) }
        return MollieResponse.hal(payment.json(base: Self.base(request)))
    }

    static func refund(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let (bytes, body) = try await Self.body(request)
        let base = Self.base(request)
        let id = Self.id(requestContext)
        return try await Self.idempotent(request, bytes: bytes, context: context) {
            let now = context.environment.clock.now()
            let refund = try context.store.withState { (state: inout MollieState) throws(MollieFailure) in try state.refund(id, body, now: now) }
            return HTTPResponseData(status: 201, headers: [("Content-Type", "application/hal+json")], body: JSONText.encodeBytes(refund.json(base: base)))
        }
    }

    /// `GET /v2/payments/{id}/refunds`: the payment's refunds, newest first, in Mollie's list envelope
    /// `{count, _embedded.refunds, _links{self, previous, next, documentation}}` — the link a refunded payment carries
    /// (`_links.refunds`, §4.12 P1-2: every link the mock emits is followable).
    static func refunds(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let payment = try context.store.withState { (state: inout MollieState) throws(MollieFailure) in try state.payment(Self.id(requestContext)) }
        let base = Self.base(request)
        return MollieResponse.hal(
            .object([
                "count": .int(payment.refunds.count),
                "_embedded": .object(["refunds": .array(payment.refunds.reversed().map { $0.json(base: base) })]),
                "_links": .object([
                    "self": MollieFormat.link("\(base)/v2/payments/\(payment.id)/refunds"), "previous": .null, "next": .null,
                    "documentation": MollieFormat.link("https://docs.mollie.com/reference/list-refunds", type: "text/html"),
                ]),
            ]))
    }

    /// `GET /v2/payments/{id}/refunds/{refundId}`: one refund (its `_links.self`); 404 in Mollie's shape when unknown.
    static func getRefund(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let payment = try context.store.withState { (state: inout MollieState) throws(MollieFailure) in try state.payment(Self.id(requestContext)) }
        let refundId = requestContext.parameters.get("refundId") ?? ""
        guard let refund = payment.refunds.first(where: { $0.id == refundId }) else {
            throw MollieFailure(code: 404, detail: "No refund exists with token \(refundId).")
        }
        return MollieResponse.hal(refund.json(base: Self.base(request)))
    }

    /// `DELETE /v2/payments/{id}/refunds/{refundId}` → 204 (§4.12 2.6; mollie-api-php `paymentRefunds->cancelForId()`).
    static func cancelRefund(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let refundId = requestContext.parameters.get("refundId") ?? ""
        try context.store.withState { (state: inout MollieState) throws(MollieFailure) in try state.cancelRefund(Self.id(requestContext), refundId) }
        return Response(status: .noContent)
    }

    /// `GET /v2/refunds`: every refund of the account, newest first, `from` inclusive, `limit` 1–250 (default 50), in
    /// the list envelope (mollie-api-php `refunds->page()`, docs "List all refunds").
    static func allRefunds(_ request: Request, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let (query, limit) = try Self.page(request)
        let refunds = context.store.withState { $0.allRefunds }
        var start = 0
        if let from = query["from"] {
            guard let index = refunds.firstIndex(where: { $0.id == from }) else { throw MollieFailure(code: 400, detail: "Invalid cursor value", field: "from") }
            start = index
        }
        let end = min(refunds.count, start + limit)
        let page = Array(refunds[start..<end])
        let base = Self.base(request)
        let link = { (from: String) in MollieFormat.link("\(base)/v2/refunds?from=\(from)&limit=\(limit)") }
        return MollieResponse.hal(
            .object([
                "count": .int(page.count),
                "_embedded": .object(["refunds": .array(page.map { $0.json(base: base) })]),
                "_links": .object([
                    "self": MollieFormat.link("\(base)/v2/refunds?limit=\(limit)"),
                    "previous": start > 0 ? link(refunds[max(0, start - limit)].id) : .null,
                    "next": end < refunds.count ? link(refunds[end].id) : .null,
                    "documentation": MollieFormat.link("https://docs.mollie.com/reference/list-all-refunds", type: "text/html"),
                ]),
            ]))
    }

    /// A list request's query and its `limit`: 1–250, 50 by default (§4.12 2.2); another value is 400 on `limit`.
    static func page(_ request: Request) throws(MollieFailure) -> (query: [String: String], limit: Int) {
        let query = Dictionary(FormText.decodePairs(request.uri.query ?? ""), uniquingKeysWith: { a, _ in a })
        guard let text = query["limit"] else { return (query, 50) }
        guard let value = Int(text), (1...250).contains(value) else {
            throw MollieFailure(code: 400, detail: "The limit must be between 1 and 250", field: "limit")
        }
        return (query, value)
    }

    /// `GET /v2/payments`: newest first, `from` inclusive, `limit` 1–250 (default 50), `count` = this page
    /// (§4.12 2.2); `previous`/`next` always present, `null` when none (§4.12 P1-3).
    static func list(_ request: Request, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let (query, limit) = try Self.page(request)
        let base = Self.base(request)
        let (page, previous, next) = try context.store.withState { (state: inout MollieState) throws(MollieFailure) in
            let ids = Array(state.order.reversed())
            var start = 0
            if let from = query["from"] {
                guard let index = ids.firstIndex(of: from) else { throw MollieFailure(code: 400, detail: "Invalid cursor value", field: "from") }
                start = index
            }
            let end = min(ids.count, start + limit)
            let page = ids[start..<end].compactMap { state.payments[$0] }
            let previous = start > 0 ? ids[max(0, start - limit)] : nil
            let next = end < ids.count ? ids[end] : nil
            return (page, previous, next)
        }
        let selfQuery = request.uri.query.map { "?" + $0 } ?? ""
        func link(_ from: String?) -> Value { from.map { MollieFormat.link("\(base)/v2/payments?from=\($0)&limit=\(limit)") } ?? .null }
        return MollieResponse.hal(
            .object([
                "count": .int(page.count),
                "_embedded": .object(["payments": .array(page.map { $0.json(base: base) })]),
                "_links": .object([
                    "self": MollieFormat.link("\(base)/v2/payments\(selfQuery)"), "previous": link(previous), "next": link(next),
                    "documentation": MollieFormat.link("https://docs.mollie.com/reference/v2/payments-api/list-payments", type: "text/html"),
                ]),
            ]))
    }

    /// `GET /v2/methods` (§4.5, §4.12 P1-6, 2.7): the methods whose limits hold the `amount[value]` filter (EUR by
    /// default), with `include=issuers` (iDEAL) and `pricing`. `GET /v2/methods/all` (Mollie's "List all payment
    /// methods", §4.5 "Other") answers the same list in the same shape: the test account has every method enabled.
    static func methods(_ request: Request, _ context: MollieContext, all: Bool = false) async throws -> Response {
        try authenticate(request)
        let query = Dictionary(FormText.decodePairs(request.uri.query ?? ""), uniquingKeysWith: { a, _ in a })
        let include = Set((query["include"] ?? "").split(separator: ",").map(String.init))
        var amount: Decimal?
        if let text = query["amount[value]"] {
            amount = try MollieState.amountValue(.string(text), currency: query["amount[currency]"] ?? "EUR")
        }
        let base = Self.base(request)
        let methods = context.store.withState { $0.methods }.filter { method in
            guard let amount else { return true }
            return amount >= method.minimum && amount <= method.maximum && (query["amount[currency]"] ?? "EUR") == "EUR"
        }
        return MollieResponse.hal(
            .object([
                "count": .int(methods.count),
                "_embedded": .object(["methods": .array(methods.map { Self.json($0, include: include, base: base) })]),
                "_links": .object([
                    "self": MollieFormat.link("\(base)/v2/methods" + (all ? "/all" : "")),
                    "documentation": MollieFormat.link(
                        all ? "https://docs.mollie.com/reference/list-all-methods" : "https://docs.mollie.com/reference/v2/methods-api/list-methods",
                        type: "text/html"),
                ]),
            ]))
    }

    static func method(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        try authenticate(request)
        let query = Dictionary(FormText.decodePairs(request.uri.query ?? ""), uniquingKeysWith: { a, _ in a })
        guard let method = context.store.withState({ $0.method(Self.id(requestContext)) }) else {
            throw MollieFailure(code: 404, detail: "No method exists with id \(Self.id(requestContext)).")
        }
        let include = Set((query["include"] ?? "").split(separator: ",").map(String.init))
        return MollieResponse.hal(Self.json(method, include: include, base: Self.base(request)))
    }

    static func json(_ method: MollieState.Method, include: Set<String>, base: String) -> Value {
        func image(_ name: String) -> Value {
            .object([
                "size1x": .string("\(base)/images/\(name).png"), "size2x": .string("\(base)/images/\(name)%402x.png"),
                "svg": .string("\(base)/images/\(name).svg"),
            ])
        }
        var members: [String: Value] = [
            "resource": "method", "id": .string(method.id), "description": .string(method.description),
            "minimumAmount": MollieFormat.amount(method.minimum, "EUR"), "maximumAmount": MollieFormat.amount(method.maximum, "EUR"),
            "image": image(method.id), "status": .string(method.available ? "activated" : "pending-external"),
            "_links": .object(["self": MollieFormat.link("\(base)/v2/methods/\(method.id)")]),
        ]
        if include.contains("issuers"), method.id == "ideal" {
            members["issuers"] = .array(
                MollieState.issuers.map { issuer in
                    .object(["resource": "issuer", "id": .string(issuer.0), "name": .string(issuer.1), "image": image(issuer.0)])
                })
        }
        if include.contains("pricing") {
            members["pricing"] = .array([
                .object([
                    "description": "The Netherlands", "fixed": MollieFormat.amount(Decimal(string: "0.29")!, "EUR"), "variable": "0",
                ])
            ])
        }
        return .object(members)
    }

    /// The statuses the test-mode screen offers (§4.7: "paid, failed, canceled, expired, open/authorized depending on
    /// method"; the exact list per method is unknown, so every one the mock can reach is offered). `open` leaves the
    /// payment as it is.
    static let testModeChoices: [PayerPage.Choice] = [
        .init(value: "paid", label: "Paid"), .init(value: "authorized", label: "Authorized"), .init(value: "failed", label: "Failed"),
        .init(value: "canceled", label: "Canceled"), .init(value: "expired", label: "Expired"), .init(value: "pending", label: "Pending"),
        .init(value: "open", label: "Open"),
    ]

    /// The test-mode checkout page of `_links.checkout.href` (§4.7): the payment, and the statuses to pick from.
    static func checkoutPage(_ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        let payment = try Self.checkoutPayment(requestContext, context)
        return Self.testModePage(payment)
    }

    /// The screen for `payment`; a final one can no longer be paid.
    private static func testModePage(_ payment: MolliePayment, message: String? = nil) -> Response {
        guard !payment.status.isFinal else {
            return PayerPage.notice(title: "Mollie test mode", paragraph: "This payment is \(payment.status.rawValue) and cannot be paid any more.")
        }
        return PayerPage.form(
            title: "Mollie test mode",
            facts: [
                ("description", "Description", payment.description),
                ("amount", "Amount", "\(payment.currency) \(MollieFormat.amount(payment.value, payment.currency)["value"]?.stringValue ?? "")"),
                ("status", "Status", payment.status.rawValue),
            ],
            message: message, field: "status", legend: "Select the payment status", choices: Self.testModeChoices,
            buttons: [("continue", "Continue")])
    }

    /// The payment of a checkout URL's `{token}`.
    private static func checkoutPayment(_ requestContext: BasicRequestContext, _ context: MollieContext) throws -> MolliePayment {
        let id = "tr_" + (requestContext.parameters.get("token") ?? "")
        guard let payment = context.store.withState({ $0.payments[id] }) else {
            throw MollieFailure(code: 404, detail: "No payment exists with token \(id).")
        }
        return payment
    }

    /// "Continue" on the test-mode screen: the payment moves to the chosen status as `payer: choose` moves it (the
    /// webhook is called first, as in test mode, §4.6), then the payer goes back to `redirectUrl` — or `cancelUrl`
    /// for a cancel that has one (§4.2) — with `303 See Other`. `open` leaves the payment open and goes back too.
    static func choose(_ request: Request, _ requestContext: BasicRequestContext, _ context: MollieContext) async throws -> Response {
        let payment = try Self.checkoutPayment(requestContext, context)
        let chosen = try await PayerPage.fields(of: request)["status"] ?? ""
        guard payment.status.isFinal == false else { return Self.testModePage(payment) }
        if chosen == "open" { return PayerPage.back(to: payment.redirectUrl) }
        guard let status = MolliePaymentStatus(rawValue: chosen), Self.testModeChoices.contains(where: { $0.value == chosen }) else {
            return Self.testModePage(payment, message: "Select one of the statuses.")
        }
        let now = context.environment.clock.now()
        guard let (moved, callsWebhook) = context.store.withState({ $0.transition(payment.id, to: status, now: now) }) else {
            return Self.testModePage(payment, message: "The payment is \(payment.status.rawValue): it cannot become \(chosen).")
        }
        if callsWebhook { await context.notify(moved) }
        return PayerPage.back(to: status == .canceled ? moved.cancelUrl ?? moved.redirectUrl : moved.redirectUrl)
    }

    /// The dashboard's page of a payment (`_links.dashboard`): its description, amount and status.
    static func dashboardPage(_ requestContext: BasicRequestContext, _ context: MollieContext) throws -> Response {
        let id = requestContext.parameters.get("id") ?? ""
        guard let payment = context.store.withState({ $0.payments[id] }) else {
            throw MollieFailure(code: 404, detail: "No payment exists with token \(id).")
        }
        let escape = MockResponse.escapeHTML
        let html =
            "<!doctype html><html><body><h1>Payment \(escape(id))</h1><p id=\"description\">\(escape(payment.description))</p>"
            + "<p id=\"status\">\(payment.status.rawValue)</p></body></html>"
        return MockResponse.html(html)
    }

    /// A method's or issuer's image (`image.size1x`, `size2x`, `svg`): an SVG with its name, or a 1×1 PNG.
    static func image(_ requestContext: BasicRequestContext) throws -> Response {
        let file = (requestContext.parameters.get("file") ?? "").removingPercentEncoding ?? ""
        let name = file.split(separator: ".").first.map { String($0.split(separator: "@").first ?? $0) } ?? ""
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw MollieFailure(code: 404, detail: "No image exists with name \(file).")
        }
        if file.hasSuffix(".svg") {
            let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"32\" height=\"24\"><text x=\"2\" y=\"16\" font-size=\"8\">\(name)</text></svg>"
            return Response(status: .ok, headers: [.contentType: "image/svg+xml"], body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
        }
        guard file.hasSuffix(".png") else { throw MollieFailure(code: 404, detail: "No image exists with name \(file).") }
        return Response(status: .ok, headers: [.contentType: "image/png"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.pixel)))
    }

    /// A 1×1 transparent PNG.
    static let pixel: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")!)
}
