import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// The API routes under `/khipu/api/2.0` and `/khipu/v3` (providers.md §2.3). Every answer is JSON (§2.12 A5).
struct KhipuAPIRoutes: Sendable {
    let context: KhipuContext

    /// One authenticated call: its version, decoded parameters (query and form or JSON body) and path id.
    struct Call {
        var apiVersion: String
        var parameters: [String: String]
        var id: String
        var now: Date
        /// The mock's own base for khipu's payer pages (host, scope, `/khipu`).
        var pageBase = ""
    }

    typealias Operation = @Sendable (KhipuContext, Call) async throws -> Value

    /// The 3.0 credential header.
    static let apiKeyHeader = HTTPFields.Element.Name("x-api-key")!

    func register(on router: Router<BasicRequestContext>) {
        let v2 = "khipu/api/2.0", v3 = "khipu/v3"
        for (root, version) in [(v2, "2.0"), (v3, "3.0")] {
            route(.get, "\(root)/banks", version, on: router) { context, _ in Self.banks(context) }
            route(.post, "\(root)/payments", version, on: router) { context, call in try Self.create(context, call) }
            route(.get, "\(root)/payments/{id}", version, on: router) { context, call in try Self.get(context, call) }
            route(.delete, "\(root)/payments/{id}", version, on: router) { context, call in
                try context.store.withState { (state: inout KhipuState) throws(KhipuFailure) -> Value in try state.delete(call.id, apiVersion: call.apiVersion) }
            }
            route(.post, "\(root)/payments/{id}/confirm", version, on: router) { context, call in
                try context.store.withState { (state: inout KhipuState) throws(KhipuFailure) -> Value in try state.confirm(call.id, apiVersion: call.apiVersion) }
            }
            route(.post, "\(root)/payments/{id}/refunds", version, on: router) { context, call in try Self.refund(context, call) }
            route(.get, "\(root)/merchants/{id}/paymentMethods", version, on: router) { context, call in try Self.paymentMethods(context, call) }
        }
        route(.get, "\(v3)/predict", "3.0", on: router) { context, call in try Self.predict(context, call) }
        // The newer refund API and its wallet (§2.12 B4).
        route(.post, "\(v3)/refunds", "3.0", on: router) { context, call in
            try context.store.withState { (state: inout KhipuState) throws(KhipuFailure) -> Value in try state.walletRefund(call.parameters, now: call.now) }
        }
        route(.get, "\(v3)/refund-wallet/balance", "3.0", on: router) { context, _ in
            try context.store.withState { (state: inout KhipuState) throws(KhipuFailure) -> Value in try state.refundWalletBalance() }
        }
        route(.get, "\(v2)/payments", "2.0", on: router) { context, call in try Self.byToken(context, call) }
        // The payer's pages the URLs of a payment point at (§2.4), on the mock's host.
        let context = self.context
        router.get("khipu/payment/{page}/{id}") { _, requestContext in try Self.page(requestContext, context) }
        router.post("khipu/payment/{page}/{id}") { request, requestContext in try await Self.submit(request, requestContext, context) }
    }

    /// Adds `method path` running `operation` after reading and authenticating the request.
    private func route(_ method: HTTPRequest.Method, _ path: String, _ version: String, on router: Router<BasicRequestContext>, _ operation: @escaping Operation) {
        let context = self.context
        router.on(RouterPath(path), method: method) { request, requestContext -> Response in
            try await Self.handle(request, requestContext, version: version, context: context, operation: operation)
        }
    }

    private static func handle(
        _ request: Request, _ requestContext: BasicRequestContext, version: String, context: KhipuContext, operation: Operation
    ) async throws -> Response {
        let bytes = try await ControlRoutes.body(of: request)
        let call = try Self.authenticate(request, bytes: bytes, version: version, id: requestContext.parameters.get("id") ?? "", context: context)
        return MockResponse.json(try await operation(context, call))
    }

    /// Reads the parameters and checks the credentials: 2.0 rebuilds the string to sign from the scheme (`https` when the mock serves TLS) + `Host` + the
    /// raw path and the *decoded* query and form parameters (§2.12 A1–A4) and answers every failure 403 (§2.12 A6);
    /// 3.0 checks `x-api-key` and answers 401 (§2.12 B14). A service marked unavailable answers 503 (§2.6).
    static func authenticate(_ request: Request, bytes: [UInt8], version: String, id: String, context: KhipuContext) throws(KhipuFailure) -> Call {
        let account = context.store.withState { $0.account }
        guard account.available else { throw KhipuFailure(code: 503, message: "Error de operación: el servicio no está disponible") }
        var pairs = FormText.decodePairs(request.uri.query ?? "")
        let now = context.environment.clock.now()
        if version == "2.0" {
            if request.method == .post { pairs += FormText.decodePairs(String(decoding: bytes, as: UTF8.self)) }
            guard let header = request.headers[.authorization], let colon = header.firstIndex(of: ":") else {
                throw KhipuFailure(code: 403, message: "Error de autorización: falta el encabezado Authorization")
            }
            let receiver = String(header[..<colon]), hash = String(header[header.index(after: colon)...])
            guard receiver == String(account.receiverId) else {
                throw KhipuFailure(code: 403, message: "Error de autorización: cobrador \(receiver) desconocido")
            }
            let url = ScopedRequest.origin(request) + request.uri.path
            let expected = KhipuSignature.hash(KhipuSignature.stringToSign(method: request.method.rawValue, url: url, parameters: pairs), secret: account.secret)
            guard expected == hash.lowercased() else {
                throw KhipuFailure(code: 403, message: "Error de autorización: la firma no corresponde")
            }
        } else {
            guard let key = request.headers[Self.apiKeyHeader], key == account.apiKey else {
                throw KhipuFailure(code: 401, message: "unauthorized")
            }
            if request.method == .post, !bytes.isEmpty {
                guard let object = JSONText.parse(bytes)?.objectValue else {
                    throw KhipuFailure(code: 400, message: "Error de validación", errors: [("body", "El cuerpo debe ser un objeto JSON")])
                }
                pairs += object.compactMap { $0.value == .null ? nil : ($0.key, $0.value.interpolated) }
            }
        }
        var parameters: [String: String] = [:]
        for (name, value) in pairs { parameters[name] = value }
        let pageBase = ScopedRequest.origin(request) + ScopedRequest.baseSuffix + "/khipu"
        return Call(apiVersion: version, parameters: parameters, id: id, now: now, pageBase: pageBase)
    }

    static func banks(_ context: KhipuContext) -> Value {
        .object([
            "banks": .array([
                .object([
                    "bank_id": "Bawdf", "name": "DemoBank", "message": "Banco de pruebas de la cuenta de desarrollo", "min_amount": .int(200),
                    "type": "Persona", "parent": "", "logo_url": "https://khipu.com/images/banks/demobank.png",
                ]),
                .object([
                    "bank_id": "Bawdg", "name": "DemoBank Empresas", "message": "", "min_amount": .int(200), "type": "Empresa",
                    "parent": "Bawdf", "logo_url": "https://khipu.com/images/banks/demobank.png",
                ]),
            ])
        ])
    }

    static func create(_ context: KhipuContext, _ call: Call) throws -> Value {
        let digits = context.store.withState { $0.account.maxAmountDigits }
        let parsed = try KhipuCreateRequest.parse(call.parameters, apiVersion: call.apiVersion, maxAmountDigits: digits, now: call.now)
        let payment = context.store.withState {
            $0.create(
                parsed.fields, amount: parsed.amount, expiresAt: parsed.expiresAt, apiVersion: call.apiVersion, now: call.now,
                pageBase: call.pageBase)
        }
        return .object(payment.urls)
    }

    /// GET a payment; on 2.0 `GET /payments?notification_token=` looks it up by its token (API 1.3).
    static func get(_ context: KhipuContext, _ call: Call) throws -> Value {
        try context.store.withState { (state: inout KhipuState) throws(KhipuFailure) -> Value in
            try state.payment(call.id, apiVersion: call.apiVersion).json(receiverId: state.account.receiverId)
        }
    }

    /// `GET /api/2.0/payments?notification_token=…`: the payment a 1.3 notification names (§2.3, §2.7).
    static func byToken(_ context: KhipuContext, _ call: Call) throws -> Value {
        guard let token = call.parameters["notification_token"], !token.isEmpty else {
            throw KhipuFailure.invalid("notification_token", "El parámetro notification_token es obligatorio")
        }
        return try context.store.withState { (state: inout KhipuState) throws(KhipuFailure) -> Value in
            guard let id = state.byToken[token] else { throw KhipuFailure.invalid("notification_token", "No hay un pago con ese token") }
            return try state.payment(id, apiVersion: "2.0").json(receiverId: state.account.receiverId)
        }
    }

    static func refund(_ context: KhipuContext, _ call: Call) throws -> Value {
        return try context.store.withState { (state: inout KhipuState) throws(KhipuFailure) -> Value in
            // The payment's currency decides the decimals (none in CLP, §2.12 B15).
            var amount: Double?
            if let text = call.parameters["amount"], !text.isEmpty {
                let currency = state.payments[call.id]?.fields["currency"]
                amount = try KhipuCreateRequest.checkedAmount(text, currency: currency, maxDigits: state.account.maxAmountDigits)
            }
            let answer = try state.refund(call.id, amount: amount, apiVersion: call.apiVersion, now: call.now)
            return .object(["message": answer["message"] ?? .null])
        }
    }

    /// The account's payment methods (§2.12 B9): ids in upper case; `REGULAR_TRANSFER` is offered for CLP.
    static func paymentMethods(_ context: KhipuContext, _ call: Call) throws -> Value {
        let receiver = context.store.withState { $0.account.receiverId }
        guard call.id == String(receiver) else {
            throw KhipuFailure(code: 403, message: "Error de autorización: el cobrador \(call.id) no es el de estas credenciales")
        }
        return .object([
            "paymentMethods": .array([
                .object(["id": "SIMPLIFIED_TRANSFER", "name": "Transferencia simplificada", "logo_url": "https://khipu.com/images/methods/simplified.png"]),
                .object(["id": "REGULAR_TRANSFER", "name": "Transferencia normal", "logo_url": "https://khipu.com/images/methods/regular.png"]),
            ])
        ])
    }

    /// `GET /v3/predict` (§2.12 B6): all four query parameters required; amounts above 5,000,000 are
    /// `max_amount_exceeded` (choice), others `ok`; results in lower case as the docs write them.
    static func predict(_ context: KhipuContext, _ call: Call) throws -> Value {
        for key in ["payer_email", "bank_id", "amount", "currency"] where (call.parameters[key] ?? "").isEmpty {
            throw KhipuFailure.invalid(key, "El parámetro \(key) es obligatorio")
        }
        let digits = context.store.withState { $0.account.maxAmountDigits }
        let amount = try KhipuCreateRequest.checkedAmount(call.parameters["amount"] ?? "", currency: call.parameters["currency"], maxDigits: digits)
        let limit = 5_000_000.0
        return .object([
            "result": .string(amount > limit ? "max_amount_exceeded" : "ok"), "max_amount": Value(number: limit),
            "cool_down_date": .string(ISOTimestamp.format(call.now, fraction: .always)), "new_destinatary_max_amount": Value(number: 1_000_000),
        ])
    }
}

extension KhipuAPIRoutes {
    /// `GET /khipu/payment/{info|simplified|manual|receipt}/{id}`: the payer's page of a payment — what it is for,
    /// how much, its state; the receipt only once it is `done`. The payer acts through `payer: pay` / `payer: reject`
    /// (DemoBank, §2.8). An unknown payment or page is khipu's 404.
    static func page(_ requestContext: BasicRequestContext, _ context: KhipuContext) throws -> Response {
        let page = requestContext.parameters.get("page") ?? ""
        let id = requestContext.parameters.get("id") ?? ""
        if page != "receipt", context.store.withState({ $0.deleted.contains(id) }) {
            let html =
                "<!doctype html><html lang=\"es\"><head><meta charset=\"utf-8\"><title>Pago eliminado</title></head><body>"
                + "<h1>Pago eliminado</h1><p>El cobrador eliminó este pago.</p></body></html>"
            return MockResponse.html(html, status: .gone)
        }
        guard ["info", "simplified", "manual", "receipt"].contains(page),
            let payment = context.store.withState({ $0.payments[id] }), page != "receipt" || payment.status == .done
        else { throw KhipuFailure(code: 404, message: "Pago no encontrado") }
        return Self.payerPage(payment, receipt: page == "receipt")
    }

    /// A payment's page: what it is for, how much, its state; while it is pending, the DemoBank simulation (§2.8: the
    /// payer's coordinates card, then "Pagar") and "Rechazar".
    private static func payerPage(_ payment: KhipuPayment, receipt: Bool = false, message: String? = nil) -> Response {
        let facts: [(id: String, label: String, value: String)] = [
            ("subject", "Motivo", payment.fields["subject"] ?? ""),
            ("amount", "Monto", "\(Value.format(payment.amount)) \(payment.fields["currency"] ?? "")"),
            ("status", "Estado", "\(payment.status.rawValue)/\(payment.statusDetail.rawValue)"),
        ]
        let title = receipt ? "Comprobante de pago" : "Pago con khipu"
        guard !receipt, payment.status == .pending else {
            return PayerPage.form(title: title, lang: "es", facts: facts, message: message, field: "", legend: "", choices: [], buttons: [])
        }
        return PayerPage.form(
            title: title, lang: "es", facts: facts, message: message, field: "bank", legend: "Banco",
            choices: [.init(value: "demobank", label: "DemoBank (banco de prueba)")],
            inputs: [(name: "coordinates", label: "Coordenadas de la tarjeta", value: "11 22 33")],
            buttons: [("pay", "Pagar"), ("reject", "Rechazar")])
    }

    /// "Pagar" (the payer transfers through DemoBank, as `payer: pay`: the payment is `verifying` until khipu
    /// reconciles it) or "Rechazar" (as `payer: reject`); then the payer goes back to `return_url` — `cancel_url`,
    /// when given, after a rejection — with `303 See Other`.
    static func submit(_ request: Request, _ requestContext: BasicRequestContext, _ context: KhipuContext) async throws -> Response {
        let id = requestContext.parameters.get("id") ?? ""
        let fields = try await PayerPage.fields(of: request)
        guard let payment = context.store.withState({ $0.payments[id] }), requestContext.parameters.get("page") != "receipt" else {
            throw KhipuFailure(code: 404, message: "Pago no encontrado")
        }
        guard payment.status == .pending else { return Self.payerPage(payment) }
        if fields["action"] == "reject" {
            let refused = await Self.reject(id, context)
            if let refused { return Self.payerPage(payment, message: refused) }
            return PayerPage.back(to: payment.fields["cancel_url"] ?? payment.fields["return_url"], lang: "es")
        }
        if let refused = Self.pay(id, coordinates: fields["coordinates"] ?? "", context) { return Self.payerPage(payment, message: refused) }
        return PayerPage.back(to: payment.fields["return_url"], lang: "es")
    }

    /// The payer's rejection of payment `id`; the reason it is refused, or `nil`.
    private static func reject(_ id: String, _ context: KhipuContext) async -> String? {
        let now = context.environment.clock.now()
        let outcome = context.store.withState { state -> Result<KhipuState.Notification?, MockHTTPError> in
            do throws(MockHTTPError) {
                return .success(try state.reject(id, abuse: false, now: now).1)
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let notification):
            if let notification { await context.deliver(notification) }
            return nil
        case .failure(let error):
            return error.message
        }
    }

    /// The payer's DemoBank transfer for payment `id` (its reconciliation is scheduled); the reason it is refused, or
    /// `nil`.
    private static func pay(_ id: String, coordinates: String, _ context: KhipuContext) -> String? {
        let now = context.environment.clock.now()
        let outcome = context.store.withState { state -> Result<Date?, MockHTTPError> in
            do throws(MockHTTPError) { return .success(try state.pay(id, coordinates: coordinates, now: now).1) } catch { return .failure(error) }
        }
        switch outcome {
        case .success(let due):
            if let due { context.scheduleConciliation(id, at: due) }
            return nil
        case .failure(let error):
            return error.message
        }
    }
}
