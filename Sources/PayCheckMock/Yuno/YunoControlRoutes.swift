import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// The Yuno control API under `/__paycheck/yuno/` (``YunoControlAction``).
struct YunoControlRoutes: Sendable {
    let context: YunoContext

    func register(on router: Router<BasicRequestContext>) {
        var handlers: [String: ControlActionRoutes.Handler] = [
            "mock/event": { try await self.event($0) },
            "mock/gateway": { try await self.gateway($0) },
            "mock/webhooks": { try await self.webhooks($0) },
            "mock/forge": { try await self.forge($0) },
        ]
        for action in ["continue", "pay", "authenticate", "close"] {
            handlers["payer/" + action] = { try await self.payer(action, $0) }
        }
        ControlActionRoutes.register(YunoProvider(), handlers: handlers, on: router)
    }

    private static func object(_ request: Request) async throws -> [String: Value] {
        try MockRequestBody.object(try await ControlRoutes.body(of: request))
    }

    private static func paymentId(_ json: [String: Value]) throws -> String {
        guard let id = json["payment_id"]?.stringValue, !id.isEmpty else {
            throw MockHTTPError(.badRequest, "'payment_id' is required, e.g. {\"payment_id\": \"…\"}")
        }
        return id
    }

    private func answer(_ payment: YunoPayment, _ extra: [String: Value] = [:]) -> Response {
        var members = extra
        members["payment"] = payment.json(retrieved: true)
        members["closed_by_user"] = .bool(payment.closedByUser)
        members["method"] = .string(payment.method)
        return MockResponse.json(.object(members))
    }

    /// What the payer does in the SDK screens (``YunoState/payer(_:on:success:now:)``).
    private func payer(_ action: String, _ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = try Self.paymentId(json)
        let success = json["success"]?.boolValue ?? true
        let now = context.environment.clock.now()
        // The state before and the move in one critical section: two copies of one payer action racing must not both
        // see the old state (each would then notify the move, a duplicated webhook).
        let (before, result) = context.store.withState { state -> (String?, Result<(YunoPayment, Value), YunoState.Refused>) in
            let before = state.payments[id]?.key
            do throws(YunoState.Refused) { return (before, .success(try state.payer(action, on: id, success: success, now: now))) } catch {
                return (before, .failure(error))
            }
        }
        guard case .success(let (payment, screen)) = result else {
            if case .failure(let refused) = result { throw MockHTTPError(before == nil ? .notFound : .conflict, refused.message) }
            throw MockHTTPError(.conflict, "refused")
        }
        if payment.key != before { await context.notify(payment) }
        return answer(payment, ["screen": screen])
    }

    /// The provider's or Yuno's later move (``YunoTransitions/events``).
    private func event(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = try Self.paymentId(json)
        guard let name = json["event"]?.stringValue else {
            throw MockHTTPError(.badRequest, "'event' is required: one of " + YunoTransitions.events.keys.sorted().joined(separator: ", "))
        }
        let amount = json["amount"]?.numberValue
        let now = context.environment.clock.now()
        let known = context.store.withState { $0.payments[id] != nil }
        let result = context.store.withState { state -> Result<YunoPayment, YunoState.Refused> in
            do throws(YunoState.Refused) { return .success(try state.apply(event: name, to: id, amount: amount, now: now)) } catch { return .failure(error) }
        }
        switch result {
        case .success(let payment):
            await context.notify(payment)
            return answer(payment, ["event": .string(name)])
        case .failure(let refused):
            throw MockHTTPError(known ? .conflict : .notFound, refused.message)
        }
    }

    /// `mock: forge {payment_id}`: the webhook an attacker would send — the payment claimed `SUCCEEDED/APPROVED`,
    /// signed with a secret that is not the hook's HMAC secret — once, to every active webhook of its trigger. The
    /// payment itself does not change. A receiver that checks `x-hmac-signature` (§3.8) ignores it.
    private func forge(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = try Self.paymentId(json)
        guard var payment = context.store.withState({ $0.payments[id] }) else {
            throw MockHTTPError(.notFound, "no Yuno payment \(MockHTTPError.quoted(id))")
        }
        payment.move(.succeeded, .approved, now: context.environment.clock.now())
        await context.notify(payment, forged: true)
        return MockResponse.json(.object(["forged": .bool(true), "payment_id": .string(id)]))
    }

    /// The test gateway's behaviour (``YunoState/Gateway``); keys left out go back to their defaults. The settings hold
    /// in this clock scope until the clock is reset (the runner does so after the case, which runs alone).
    private func gateway(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        var gateway = YunoState.Gateway()
        func duration(_ key: String) throws -> TimeInterval? {
            guard let value = json[key], value != .null else { return nil }
            guard let seconds = value.numberValue ?? value.stringValue.flatMap(DurationText.seconds), seconds >= 0 else {
                throw MockHTTPError(.badRequest, "'\(key)' must be a duration such as 30s or 1h")
            }
            return seconds
        }
        func choice(_ key: String, _ allowed: [String]) throws -> String? {
            guard let value = json[key], value != .null else { return nil }
            guard let text = value.stringValue, allowed.contains(text) else {
                throw MockHTTPError(.badRequest, "'\(key)' must be one of " + allowed.joined(separator: ", "))
            }
            return text
        }
        if let value = try duration("latency") { gateway.latency = value }
        if let value = try duration("qr_expiry") { gateway.qrExpiry = value }
        if let value = try duration("psp_timeout") { gateway.pspTimeout = value }
        if let value = try choice("capture", ["approve", "retry", "reject"]) { gateway.capture = value }
        if let value = try choice("refund", ["approve", "retry", "confirm"]) { gateway.refund = value }
        if let value = try choice("cancel", ["approve", "confirm"]) { gateway.cancel = value }
        if let value = json["strict_webhook_urls"], value != .null {
            guard let flag = value.boolValue else { throw MockHTTPError(.badRequest, "'strict_webhook_urls' must be true or false") }
            gateway.strictWebhookURLs = flag
        }
        if let value = json["max_amount_digits"], value != .null {
            guard let digits = value.wholeNumber, (1...18).contains(digits) else {
                throw MockHTTPError(.badRequest, "'max_amount_digits' must be a whole number from 1 to 18")
            }
            gateway.maxAmountDigits = digits
        }
        for (key, path) in [("card_type", \YunoTestCards.UnknownCard.type), ("card_category", \.category), ("card_issuer", \.issuerName)] {
            guard let value = json[key], value != .null else { continue }
            guard let text = value.stringValue, text.count <= 64 else { throw MockHTTPError(.badRequest, "'\(key)' must be text of at most 64 characters") }
            gateway.unknownCard[keyPath: path] = text
        }
        let epoch = context.epoch
        context.store.withState {
            $0.gateway = gateway
            $0.gatewayEpoch = epoch
        }
        return MockResponse.json(gateway.json)
    }

    /// Every webhook attempt (optionally of one payment, to one webhook), with the exact headers and body sent.
    private func webhooks(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        let id = json["payment_id"]?.stringValue
        let hook = json["webhook_id"]?.stringValue
        let entries = context.store.withState { state in
            state.webhookLog.filter { (id == nil || $0["payment_id"]?.stringValue == id) && (hook == nil || $0["webhook_id"]?.stringValue == hook) }
        }
        return MockResponse.json(.object(["count": .int(entries.count), "webhooks": .array(entries)]))
    }
}
