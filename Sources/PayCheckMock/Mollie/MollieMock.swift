package import Foundation
package import Hummingbird
import PayCheckCore
package import PayCheckProviders

/// The stateful mock of the Mollie Payments API v2 in test mode (providers.md §4, corrected by §4.12), under
/// `/mollie/v2`: bearer-key auth, `application/hal+json` with absolute `_links` on the mock's own host, payments with
/// the transitions of §4.4 and expiry on the mock clock, cancel/update/refunds, cursor pagination, methods with iDEAL
/// issuers, the test-mode checkout page and the payer's choice there, unsigned form webhooks with Mollie's 10-attempt
/// retry schedule, and `Idempotency-Key` on POST through the shared store.
package struct MollieMock: ProviderMock {
    package var provider: any Provider { MollieProvider() }
    package var nativeStates: [String] { MolliePaymentStatus.spellings }

    let store: MollieStore

    package init() { self.init(random: { UInt64.random(in: .min ... .max) }) }
    package init(random: @escaping @Sendable () -> UInt64) { self.store = MollieStore { MollieState(random: random) } }

    package func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        let context = MollieContext(store: store, environment: environment)
        MollieAPIRoutes(context: context).register(on: router)
        MollieControlRoutes(context: context).register(on: router)
    }

    /// 404 "No entity at …" for an unknown path, 405 "Method Not Allowed" for another method on a known one, both as
    /// Mollie's hal+json error (§4.8; the 405 is the mock's choice, docs/providers/mollie.md).
    package func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData {
        // The path as the client addressed Mollie: without the mock's own `/mollie` prefix.
        let own = provider.mockBasePaths.first { path.hasPrefix($0 + "/") }.map { String(path.dropFirst($0.count)) } ?? path
        return allowed.isEmpty
            ? errorAnswer(status: 404, message: "No entity at \(method) \(own).", now: now)
            : errorAnswer(status: 405, message: "The method \(method) is not supported for this resource.", now: now)
    }

    package func reset() async { store.reset() }
}
typealias MollieStore = ProviderStateStore<MollieState>

struct MollieContext: Sendable {
    let store: MollieStore
    let environment: MockEnvironment

    /// Mollie's retry schedule (§4.12 2.5): 10 attempts, at +1, +3, +7, +15, +31 min, +1, +2, +4 and +26 h.
    static let retries = WebhookRetrySchedule(retriesAfter: [60, 180, 420, 900, 1860, 3600, 7200, 14400, 93600].map { .seconds($0) })

    /// Posts `id=tr_…` (form, unsigned, §4.6) to the payment's webhook URL, if it has one.
    func notify(_ payment: MolliePayment) async {
        guard let url = payment.webhookUrl, !url.isEmpty else { return }
        let store = self.store
        let id = payment.id
        let webhook = Webhook(
            provider: "mollie", url: url, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "*/*")],
            body: Array("id=\(payment.id)".utf8), schedule: Self.retries)
        _ = await environment.webhooks.deliver(webhook) { attempt in
            let entry = Value.object([
                "id": .string(id), "url": .string(url), "attempt": .int(attempt.attempt), "status": .string(payment.status.rawValue),
                "responseStatus": attempt.status.map { .int($0) } ?? .null, "error": attempt.error.map { .string($0) } ?? .null,
                "sentAt": .string(ISOTimestamp.format(attempt.sentAt)),
            ])
            store.withState { $0.webhookLog.append(entry) }
        }
    }

    /// Expires `id` at its `expiresAt` if it is still open (§4.4), and calls its webhook.
    func scheduleExpiry(_ payment: MolliePayment) {
        let context = self
        let id = payment.id
        environment.scheduler.schedule(at: payment.expiresAt, label: "mollie expiry \(id)") {
            let now = context.environment.clock.now()
            let expired = context.store.withState { state -> MolliePayment? in
                guard state.payments[id]?.status == .open else { return nil }
                return state.transition(id, to: .expired, now: now)?.0
            }
            if let expired { await context.notify(expired) }
        }
    }
}
