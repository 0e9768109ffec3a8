import Foundation
import PayCheckCore
import PayCheckProviders

/// The Yuno mock's state in the shared store.
typealias YunoStore = ProviderStateStore<YunoState>

struct YunoContext: Sendable {
    let store: YunoStore
    let environment: MockEnvironment
}

extension YunoContext {
    /// The current clock scope and its reset count: `mock: gateway` settings hold until the runner resets the clock
    /// after the case that made them (or another run's scope asks).
    var epoch: String { "\(ClockScope.current.id)#\(environment.clock.resetCount)" }

    /// Drops `mock: gateway` settings made in another scope or before the last clock reset; call before reading them.
    func refreshGateway() {
        let epoch = self.epoch
        store.withState { state in
            if state.gatewayEpoch != epoch {
                state.gateway = YunoState.Gateway()
                state.gatewayEpoch = epoch
            }
        }
    }

    /// The retry schedule of §3.8 (§3.13 P3-28): 7 attempts, at +5 min, +50 min, +6 h, +24 h, +48 h and +96 h after
    /// the first; only HTTP 200 acknowledges ("only the HTTP 200 status is required", Yuno's webhooks overview).
    static let retries = WebhookRetrySchedule(retriesAfter: [300, 3000, 21_600, 86_400, 172_800, 345_600].map { .seconds($0) })

    /// Sends the payment's webhook to every active webhook whose `payment_triggers` include the latest transaction's
    /// type (§3.8, §3.13 P1-13/P1-14): `{type, type_event, account_id, retry, version: 2, data{idempotency_key,
    /// payment}}` with `x-api-key`, `x-secret` and, with an HMAC secret, `x-hmac-signature` over the exact bytes. The
    /// body carries the attempt's `retry` counter (0 first), so each attempt is rendered and signed anew; the
    /// idempotency key (the payment's) stays the same, so a merchant de-duplicates on `type_event` + key.
    ///
    /// `forged`: the webhook an attacker would send instead — signed with a secret that is not the hook's, sent once.
    func notify(_ payment: YunoPayment, forged: Bool = false) async {
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
                let bytes = JSONText.encodeBytes(body)
                var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
                if let key = hook.json["api_key"]?.stringValue { headers.append(("x-api-key", key)) }
                if let secret = hook.json["secret"]?.stringValue { headers.append(("x-secret", secret)) }
                if let hmac = hook.json["hmac_client_secret"]?.stringValue {
                    let secret = forged ? "forged-" + hmac + "x" : hmac
                    headers.append(("x-hmac-signature", YunoWebhookSignature.sign(body: bytes, secret: secret)))
                }
                return (headers, bytes)
            }
            let first = render(1)
            var webhook = Webhook(
                provider: "yuno", url: hook.url, headers: first.headers, body: first.body,
                schedule: forged ? WebhookRetrySchedule(retriesAfter: []) : Self.retries)
            webhook.render = render
            webhook.acknowledges = { $0 == 200 }
            let store = self.store
            let state = payment.key
            await environment.webhooks.deliver(webhook) { attempt in
                // The first attempt sends what was rendered above; a retry is rendered anew (its `retry` differs).
                let sent = attempt.attempt == 1 ? first : render(attempt.attempt)
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
        if payment.pair == YunoStatePair(.created, .created), payment.method == "CARD" {
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
