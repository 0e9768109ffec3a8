// The shop: its orders, its providers and its routes.
import Foundation
import Hummingbird
import NIOCore

/// An answer of the shop: a status and a JSON body.
struct Reply: Sendable {
    /// The HTTP status.
    var status: HTTPResponse.Status
    /// The JSON body.
    var body: JSONValue

    /// `status` with `{"error": message}`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Reply {
        Reply(status: status, body: ["error": .string(message)])
    }

    /// 200 with `{}`, the answer to a notification that was handled (or ignored on purpose).
    static let empty = Reply(status: .ok, body: [:])
}

/// A request the shop cannot read; its message is the 400 answer's `error`.
struct BadRequest: Error {
    /// What is wrong.
    let message: String
}

/// The shop: its orders, its providers and its routes (see python-shop's README.md for the contract).
struct Shop: Sendable {
    /// The settings.
    let config: ShopConfig
    /// The orders.
    let store: OrderStore
    /// Mollie.
    let mollie: MollieClient
    /// PlacetoPay.
    let placetopay: PlacetoPayClient
    let khipu: KhipuClient
    let mit: MITClient
    let yuno: YunoClient

    /// A public host on plain http, for `SHOP_BUG=public-http`.
    static let plainHost = "http://shop.example"

    /// The most a request body may hold.
    static let maxBody = 1 << 20

    /// Creates the shop for `config`, reaching the providers through `http`.
    init(config: ShopConfig, http: ProviderHTTP) {
        self.config = config
        self.store = OrderStore(bug: config.bug)
        self.mollie = MollieClient(
            baseURL: config.mollieAPIURL, apiKey: config.mollieAPIKey, publicURL: config.publicURL,
            sendsIdempotencyKey: config.bug != .noIdempotencyKey, asksForNotifications: config.bug != .noNotifications,
            sendsRedirectURL: config.bug != .noRedirectURL, returnBase: config.bug == .publicHTTP ? Self.plainHost : nil,
            amountAsNumber: config.bug == .amountAsNumber, liveKey: config.bug == .liveKey, authorizedIsPaid: config.bug == .authorizedPaid,
            http: http)
        self.placetopay = PlacetoPayClient(
            baseURL: config.placetopayURL, login: config.placetopayLogin, secretKey: config.placetopaySecret,
            expirationMinutes: config.bug == .shortExpiration ? 2 : config.placetopayExpirationMinutes, publicURL: config.publicURL,
            sendsClientInfo: config.bug != .noClientInfo, returnBase: config.bug == .publicHTTP ? Self.plainHost : nil,
            seedLag: config.bug == .staleSeed ? 600 : 0, sha1TranKey: config.bug == .sha1TranKey, sendsReference: config.bug != .noReference,
            reusedNonce: config.bug == .reuseNonce ? PlacetoPayClient.randomNonce() : nil, http: http)
        self.khipu = KhipuClient(
            baseURL: config.khipuURL, apiKey: config.khipuAPIKey, secret: config.khipuSecret, publicURL: config.publicURL,
            asksForNotifications: config.bug != .noNotifications, returnBase: config.bug == .publicHTTP ? Self.plainHost : nil,
            sendsNotifyVersion: config.bug != .noNotifyVersion, sendsTransactionID: config.bug != .noTransactionID,
            addsHalfUnit: config.bug == .clpDecimals,
            ignoresStatusDetail: config.bug == .ignoreStatusDetail, http: http)
        let mit = config.mit
        self.mit = MITClient(
            baseURL: mit["MIT_URL"] ?? "", idCompany: mit["MIT_ID_COMPANY"] ?? "", idBranch: mit["MIT_ID_BRANCH"] ?? "",
            user: mit["MIT_USER"] ?? "", password: mit["MIT_PASSWORD"] ?? "", data0: mit["MIT_DATA0"] ?? "", keyHex: mit["MIT_KEY"] ?? "",
            encrypts: config.bug != .plainMIT, fixedIV: config.bug == .reuseIV ? Array(repeating: 7, count: 16) : nil,
            shortAmount: config.bug == .mitAmountFormat, fixedReference: config.bug == .reuseReference ? "PAYCHECK-ORDER" : nil, http: http)
        let yuno = config.yuno
        self.yuno = YunoClient(
            baseURL: yuno["YUNO_API_URL"] ?? "", publicKey: yuno["YUNO_PUBLIC_API_KEY"] ?? "", privateKey: yuno["YUNO_PRIVATE_SECRET_KEY"] ?? "",
            accountID: yuno["YUNO_ACCOUNT_ID"] ?? "", webhookSecret: yuno["YUNO_WEBHOOK_SECRET"] ?? "",
            country: config.bug == .wrongCountry ? "MX" : ProcessInfo.processInfo.environment["YUNO_COUNTRY"].flatMap { $0.isEmpty ? nil : $0 } ?? "CO",
            sendsIdempotencyKey: config.bug != .noIdempotencyKey, sendsCheckoutSession: config.bug != .noCheckoutSession,
            amountAsText: config.bug == .amountAsText, callbackURL: config.bug == .publicHTTP ? Self.plainHost + "/return" : nil, http: http)
    }

    // MARK: Dispatch

    /// Answers `request` and logs one line for it: method, path and status.
    func respond(to request: Request) async -> Response {
        let rawPath = request.uri.path
        var path = rawPath
        if path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let reply: Reply
        do {
            switch request.method {
            case .get: reply = await self.get(path)
            case .post: reply = try await self.post(path, request)
            // The shop serves GET and POST only; any other method is refused the same way.
            default: reply = .error(.methodNotAllowed, "method not allowed")
            }
        } catch let error as BadRequest {
            reply = .error(.badRequest, error.message)
        } catch {
            // Never leak the details to the client.
            log("internal error: \(error)")
            reply = .error(.internalServerError, "internal error")
        }
        log("\(request.method.rawValue) \(rawPath) \(reply.status.code)")
        return Response(
            status: reply.status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body.serialized)))
    }

    /// The GET routes.
    private func get(_ path: String) async -> Reply {
        if path == "/health" { return Reply(status: .ok, body: ["ok": .bool(true)]) }
        if let id = Self.id(in: path, after: "/orders/") { return await self.getOrder(id) }
        if let id = Self.id(in: path, after: "/return/") { return await self.shopperReturn(id) }
        if ["/orders", "/webhooks/mollie", "/webhooks/placetopay", "/webhooks/khipu", "/webhooks/mit", "/webhooks/yuno"].contains(path) {
            return .error(.methodNotAllowed, "method not allowed")
        }
        return .error(.notFound, "not found")
    }

    /// The POST routes.
    /// - Throws: ``BadRequest`` when the body cannot be read.
    private func post(_ path: String, _ request: Request) async throws -> Reply {
        switch path {
        case "/orders": return try await self.createOrder(Self.body(of: request))
        case "/webhooks/mollie": return try await self.mollieWebhook(Self.body(of: request))
        case "/webhooks/placetopay": return try await self.placetopayNotification(Self.body(of: request))
        case "/webhooks/mit": return try await self.mitResult(Self.body(of: request))
        case "/webhooks/yuno":
            return try await self.yunoWebhook(Self.body(of: request), signature: request.headers.first { $0.name.canonicalName == "x-hmac-signature" }?.value)
        case "/webhooks/khipu":
            return try await self.khipuNotification(Self.body(of: request), signature: request.headers.first { $0.name.canonicalName == "x-khipu-signature" }?.value)
        default:
            if path.hasPrefix("/orders/"), path.hasSuffix("/pay"), let id = Self.id(in: String(path.dropLast(4)), after: "/orders/") {
                return try await self.payOrder(id, Self.body(of: request))
            }
            if path == "/health" || Self.id(in: path, after: "/orders/") != nil || Self.id(in: path, after: "/return/") != nil {
                return .error(.methodNotAllowed, "method not allowed")
            }
            return .error(.notFound, "not found")
        }
    }

    /// The order id after `prefix` in `path`: 1–64 letters, digits, `_` or `-`.
    private static func id(in path: String, after prefix: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let id = path.dropFirst(prefix.count)
        let allowed = id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return (1...64).contains(id.unicodeScalars.count) && allowed ? String(id) : nil
    }

    /// The request's body, at most ``maxBody`` bytes.
    /// - Throws: ``BadRequest`` for a bad or too large `Content-Length`, or a body larger than ``maxBody``.
    private static func body(of request: Request) async throws -> [UInt8] {
        if let length = request.headers[.contentLength] {
            guard let count = Int(length) else { throw BadRequest(message: "bad Content-Length") }
            guard (0...Self.maxBody).contains(count) else { throw BadRequest(message: "body too large") }
        }
        do {
            let buffer = try await request.body.collect(upTo: Self.maxBody)
            return Array(buffer.readableBytesView)
        } catch {
            throw BadRequest(message: "body too large")
        }
    }

    // MARK: Routes

    /// `POST /orders`: validates the order, creates the payment at its provider and stores the order.
    private func createOrder(_ body: [UInt8]) async -> Reply {
        guard let data = JSONValue.parse(body), data.isObject else { return .error(.badRequest, "the body must be a JSON object") }
        guard let name = data["provider"]?.stringValue, let provider = PaymentProvider(rawValue: name) else {
            return .error(.badRequest, "provider must be 'mollie', 'placetopay', 'khipu', 'mit' or 'yuno'")
        }
        guard self.config.enabledProviders.contains(provider) else {
            return .error(.badRequest, "provider \(provider.rawValue) is not configured")
        }
        guard let amount = data["amount"]?.stringValue, Amount.isWellFormed(amount) else {
            return .error(.badRequest, #"amount must be a string of major units, e.g. "10.00""#)
        }
        guard let currency = data["currency"]?.stringValue, currency.unicodeScalars.count == 3,
            currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })
        else {
            return .error(.badRequest, #"currency must be an ISO 4217 code, e.g. "EUR""#)
        }
        let description = data["description"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard let raw = data["description"]?.stringValue, !description.isEmpty, raw.unicodeScalars.count <= 255 else {
            return .error(.badRequest, "description must be a non-empty string of at most 255 characters")
        }
        let zeroDecimal = provider == .mollie ? Amount.zeroDecimalMollie : Amount.zeroDecimalISO
        do {
            _ = try Amount(amount, currency: currency, zeroDecimal: zeroDecimal)
        } catch {
            return .error(.badRequest, "\(error)")
        }

        var order = Order(id: self.store.newID(), provider: provider, amount: amount, currency: currency, description: description)
        // SHOP_BUG=other-amount: the provider is asked for another amount than the order's.
        let charged = self.charged(order)
        let created: (paymentID: String, checkoutURL: JSONValue, status: OrderStatus)
        do {
            switch provider {
            case .mollie: created = try await self.mollie.create(charged)
            case .placetopay: created = try await self.placetopay.create(charged, clientIP: "127.0.0.1")
            case .khipu: created = try await self.khipu.create(charged)
            case .mit: created = try await self.mit.create(charged)
            case .yuno: created = try await self.yuno.create(charged)
            }
        } catch {
            log("order \(order.id): creating the payment failed: \(error)")
            return .error(.badGateway, "\(error)")
        }
        order.paymentID = created.paymentID
        order.checkoutURL = created.checkoutURL
        order.status = created.status == .pending ? .pending : .open
        self.store.add(order)
        log("order \(order.id) created at \(provider.rawValue) as \(created.paymentID)")
        return Reply(
            status: .created,
            body: [
                "id": .string(order.id), "provider": .string(provider.rawValue), "paymentId": .string(created.paymentID),
                "checkoutUrl": created.checkoutURL, "status": .string(order.status.rawValue),
            ])
    }

    /// The order as the provider is asked to charge it: the order itself, unless a seeded bug changes the amount
    /// (`other-amount`: one major unit more; `drop-cents`: the minor units lost).
    func charged(_ order: Order) -> Order {
        switch self.config.bug {
        case .otherAmount: order.withAmount(Amount.oneUnitMore(order.amount))
        case .dropCents: order.withAmount(Amount.majorUnitsOnly(order.amount))
        default: order
        }
    }

    /// `GET /orders/<id>`: answers the order; in the `read` design it first re-queries the provider while the order
    /// is not final.
    private func getOrder(_ id: String) async -> Reply {
        guard let order = self.store.order(id) else { return .error(.notFound, "order not found") }
        guard self.config.design == .read else { return Reply(status: .ok, body: order.json) }
        // On a provider error the stored status is shown.
        let current = await self.refresh(order, source: .query)
        return Reply(status: .ok, body: current.json)
    }

    /// `GET /return/<id>`: the shopper is back; asks the provider (never trusts the return) and answers the status.
    private func shopperReturn(_ id: String) async -> Reply {
        guard let order = self.store.order(id) else { return .error(.notFound, "order not found") }
        let current: Order
        if self.config.bug == .trustReturn {
            current = self.store.apply(.paid, to: id, source: .return) ?? order
        } else if self.config.design == .notify {
            current = order
        } else {
            current = await self.refresh(order, source: .return)
        }
        return Reply(status: .ok, body: ["id": .string(current.id), "status": .string(current.status.rawValue)])
    }

    /// Asks the provider for a non-final `order` and applies the answer; answers the order as it is afterwards (as it
    /// was, when the provider cannot be asked).
    func refresh(_ order: Order, source: UpdateSource) async -> Order {
        guard !order.status.isFinal, let paymentID = order.paymentID else { return order }
        let status: OrderStatus?
        do {
            switch order.provider {
            case .mollie: status = try await self.mollie.status(of: paymentID)
            case .placetopay: status = try await self.placetopay.status(of: paymentID)
            case .khipu: status = try await self.khipu.status(of: paymentID)
            case .mit: status = nil  // WebPay Plus has no status query: only the result MIT posts decides
            case .yuno:
                // Until the app hands over the SDK's token there is no payment to ask about.
                guard let payment = self.store.order(order.id)?.yunoPaymentID else { return order }
                status = try await self.yuno.status(of: payment)
            }
        } catch {
            log("order \(order.id): re-query failed: \(error)")
            return self.store.order(order.id) ?? order
        }
        if let status { return self.store.apply(status, to: order.id, source: source) ?? order }
        return self.store.order(order.id) ?? order
    }

    /// The first value of field `name` in a form body (`application/x-www-form-urlencoded`); `nil` when it is
    /// missing.
    static func formValue(_ name: String, in body: [UInt8]) -> String? {
        /// A form-encoded text decoded: `+` is a space, `%XX` a byte.
        func decode(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        for field in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if decode(parts[0]) == name { return parts.count > 1 ? decode(parts[1]) : "" }
        }
        return nil
    }
}
