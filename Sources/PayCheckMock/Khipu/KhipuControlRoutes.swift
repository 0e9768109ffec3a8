import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// The khipu control API under `/__paycheck/khipu/` (``KhipuControlAction``).
struct KhipuControlRoutes: Sendable {
    let context: KhipuContext

    func register(on router: Router<BasicRequestContext>) {
        ControlActionRoutes.register(
            KhipuProvider(),
            handlers: [
                "payer/pay": { try await self.pay($0) },
                "payer/reject": { try await self.reject($0) },
                "mock/conciliate": { try await self.conciliate($0) },
                "mock/markPaid": { try await self.markPaid($0) },
                "mock/forge": { try await self.forge($0) },
                "mock/account": { try await self.account($0) },
                "mock/notifications": { try await self.notifications($0) },
                "mock/refundStatus": { try await self.refundStatus($0) },
            ], on: router)
    }

    private static func object(_ request: Request) async throws -> [String: Value] {
        try MockRequestBody.object(try await ControlRoutes.body(of: request))
    }

    private static func paymentId(_ json: [String: Value]) throws(MockHTTPError) -> String {
        guard let id = json["payment_id"]?.stringValue, !id.isEmpty else {
            throw MockHTTPError(.badRequest, "'payment_id' is required (the id createPayment answered)")
        }
        return id
    }

    private func pay(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = try Self.paymentId(json)
        let coordinates = json["coordinates"]?.stringValue ?? "11 22 33"
        let now = context.environment.clock.now()
        let (answer, due) = try context.store.withState { (state: inout KhipuState) throws(MockHTTPError) in try state.pay(id, coordinates: coordinates, now: now) }
        if let due { context.scheduleConciliation(id, at: due) }
        return MockResponse.json(answer)
    }

    private func reject(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = try Self.paymentId(json)
        let abuse = json["abuse"]?.boolValue ?? false
        let now = context.environment.clock.now()
        let (answer, notification) = try context.store.withState { (state: inout KhipuState) throws(MockHTTPError) in try state.reject(id, abuse: abuse, now: now) }
        if let notification { await context.deliver(notification) }
        return MockResponse.json(answer)
    }

    private func conciliate(_ request: Request) async throws -> Response {
        let id = try Self.paymentId(try await Self.object(request))
        guard let payment = await context.conciliate(id) else {
            throw MockHTTPError(.conflict, "payment \(MockHTTPError.quoted(id)) is not verifying (pay it first with 'payer: pay')")
        }
        let receiver = context.store.withState { $0.account.receiverId }
        return MockResponse.json(.object(["payment": payment.json(receiverId: receiver)]))
    }

    /// `mock: refundStatus {payment_id, refund_id, status}`: khipu authorises a refund row, then pays it out (§2.12 B4).
    private func refundStatus(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = try Self.paymentId(json)
        guard let refundId = json["refund_id"]?.stringValue, !refundId.isEmpty else {
            throw MockHTTPError(.badRequest, "'refund_id' is required (the id POST /v3/refunds answered, or refunds[].id of GET)")
        }
        let status = json["status"]?.stringValue ?? ""
        let now = context.environment.clock.now()
        return MockResponse.json(
            try context.store.withState { (state: inout KhipuState) throws(MockHTTPError) in
                try state.advanceRefund(id, refundId: refundId, to: status, now: now)
            })
    }

    /// `mock: markPaid`: the merchant marks a pending payment paid by other means (§2.5 `marked-paid-by-receiver`).
    private func markPaid(_ request: Request) async throws -> Response {
        let id = try Self.paymentId(try await Self.object(request))
        let now = context.environment.clock.now()
        let (payment, notification) = try context.store.withState { (state: inout KhipuState) throws(MockHTTPError) in try state.markPaid(id, now: now) }
        if let notification { await context.deliver(notification) }
        let receiver = context.store.withState { $0.account.receiverId }
        return MockResponse.json(.object(["payment": payment.json(receiverId: receiver)]))
    }

    /// `mock: forge {payment_id, url?}`: the notification an attacker would send — the payment claimed `done/normal`,
    /// in the API 3.0 shape, signed with a key that is not the account's secret — once, to the payment's
    /// `notify_url` (or `url`). A receiver that checks `x-khipu-signature` (§2.7) ignores it.
    private func forge(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = try Self.paymentId(json)
        let now = context.environment.clock.now()
        let notification = try context.store.withState { (state: inout KhipuState) throws(MockHTTPError) in
            guard var payment = state.payments[id] else { throw MockHTTPError(.notFound, "no khipu payment \(MockHTTPError.quoted(id))") }
            guard let url = json["url"]?.stringValue ?? payment.fields["notify_url"], !url.isEmpty else {
                throw MockHTTPError(.conflict, "payment \(MockHTTPError.quoted(id)) has no notify_url; give 'url'")
            }
            payment.status = .done
            payment.statusDetail = .normal
            let body = JSONText.encodeBytes(payment.json(receiverId: state.account.receiverId))
            let t = String(Int64((now.timeIntervalSince1970 * 1000).rounded()))
            let header = KhipuSignature.notificationHeader(t: t, body: body, secret: "forged-" + state.account.secret + "x")
            return KhipuState.Notification(paymentId: id, url: url, headers: [("Content-Type", "application/json"), ("x-khipu-signature", header)], body: body)
        }
        await context.deliver(notification, retries: WebhookRetrySchedule(retriesAfter: []))
        let sent = context.store.withState { $0.deliveries.last { $0["payment_id"]?.stringValue == id } }
        return MockResponse.json(.object(["forged": .bool(true), "url": .string(notification.url), "delivery": sent ?? .null]))
    }

    /// `mock: account {conciliationDelay?, notificationRetries?, signNotificationsWith?, available?, refundWallet?, refundWalletBalance?, maxAmountDigits?, notifyRejections?}`.
    private func account(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        var delay: TimeInterval?
        if let value = json["conciliationDelay"] {
            guard let text = value.stringValue, let seconds = try? DurationText.parse(text) else {
                throw MockHTTPError(.badRequest, "'conciliationDelay' must be a duration such as \"30s\"")
            }
            delay = seconds
        }
        var retries: WebhookRetrySchedule?
        if let value = json["notificationRetries"] {
            guard let texts = value.arrayValue?.compactMap(\.stringValue), let schedule = WebhookRetrySchedule(parsing: texts) else {
                throw MockHTTPError(.badRequest, "'notificationRetries' must be an array of durations such as [\"1m\", \"10m\"]")
            }
            retries = schedule
        }
        let notifyRejections = json["notifyRejections"]?.boolValue
        let signer = json["signNotificationsWith"]?.stringValue
        if let signer, !["secret", "apiKey"].contains(signer) {
            throw MockHTTPError(.badRequest, "'signNotificationsWith' must be secret or apiKey")
        }
        let available = json["available"]?.boolValue
        let wallet = json["refundWallet"]?.boolValue
        var balance: Double?
        if let value = json["refundWalletBalance"] {
            guard let number = value.numberValue, number >= 0 else {
                throw MockHTTPError(.badRequest, "'refundWalletBalance' must be a number of CLP, 0 or more")
            }
            balance = number
        }
        var digits: Int?
        if let value = json["maxAmountDigits"] {
            guard let number = value.wholeNumber, (1...18).contains(number) else {
                throw MockHTTPError(.badRequest, "'maxAmountDigits' must be a whole number from 1 to 18")
            }
            digits = number
        }
        let account = context.store.withState { state in
            if let delay { state.account.conciliationDelay = delay }
            if let retries { state.account.notificationRetries = retries }
            if let signer { state.account.signNotificationsWith = signer }
            if let available { state.account.available = available }
            if let wallet { state.account.refundWallet = wallet }
            if let balance { state.account.refundWalletBalance = balance }
            if let digits { state.account.maxAmountDigits = digits }
            if let notifyRejections { state.account.notifyRejections = notifyRejections }
            return state.account
        }
        return MockResponse.json(
            .object([
                "receiverId": .int(account.receiverId), "conciliationDelay": .string("\(Value.format(account.conciliationDelay))s"),
                "notificationRetries": .array(account.notificationRetries.retryOffsetTexts.map(Value.string)),
                "signNotificationsWith": .string(account.signNotificationsWith), "available": .bool(account.available),
                "refundWallet": .bool(account.refundWallet), "refundWalletBalance": Value(number: account.refundWalletBalance),
                "maxAmountDigits": .int(account.maxAmountDigits), "notifyRejections": .bool(account.notifyRejections),
            ]))
    }

    private func notifications(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = json["payment_id"]?.stringValue
        let entries = context.store.withState { state in state.deliveries.filter { id == nil || $0["payment_id"]?.stringValue == id } }
        return MockResponse.json(.object(["count": .int(entries.count), "notifications": .array(entries)]))
    }
}
