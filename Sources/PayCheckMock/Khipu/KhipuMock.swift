package import Foundation
package import Hummingbird
import PayCheckCore
package import PayCheckProviders

/// The stateful mock of khipu (providers.md §2, corrected by §2.12), served under `/khipu`: API 2.0 under
/// `/khipu/api/2.0` (form requests, HMAC `Authorization` checked against the rebuilt string to sign, every auth
/// failure 403) and API 3.0 under `/khipu/v3` (JSON, `x-api-key`, 401). Payments go `pending` → `verifying` (the payer
/// paid through DemoBank) → `done` (reconciled on the mock clock), notifying `notify_url` by API 1.3 or 3.0 with the
/// shared webhook dispatcher's retries. Control API under `/__paycheck/khipu/` (``KhipuControlAction``).
package struct KhipuMock: ProviderMock {
    /// The khipu adapter.
    package var provider: any Provider { KhipuProvider() }
    /// Every `status` the mock reports (§2.5).
    package var nativeStates: [String] { KhipuPaymentStatus.spellings }

    let store: KhipuStore

    /// Creates a mock drawing ids and tokens from the system RNG.
    package init() { self.init(random: { UInt64.random(in: .min ... .max) }) }

    /// Creates a mock drawing random bits from `random`.
    package init(random: @escaping @Sendable () -> UInt64) {
        self.store = KhipuStore { KhipuState(random: random) }
    }

    /// Adds the API routes, the control routes and the JSON 404 for anything else under `/khipu`.
    package func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        let context = KhipuContext(store: store, environment: environment)
        KhipuAPIRoutes(context: context).register(on: router)
        KhipuControlRoutes(context: context).register(on: router)
    }

    /// khipu's `{status, message}` (§2.6): 404 for an unknown path, 405 for another method on a known one (the
    /// mock's choice; khipu documents neither).
    package func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData {
        allowed.isEmpty
            ? errorAnswer(status: 404, message: "No existe el recurso \(method) \(path)", now: now)
            : errorAnswer(status: 405, message: "Método \(method) no permitido en \(path)", now: now)
    }

    /// Forgets every payment and restores the account's defaults.
    package func reset() async { store.reset() }
}

typealias KhipuStore = ProviderStateStore<KhipuState>

/// What the khipu routes share: the store and the host's services.
struct KhipuContext: Sendable {
    let store: KhipuStore
    let environment: MockEnvironment

    /// Schedules the reconciliation of `id` at `date` on the mock clock of the current scope.
    func scheduleConciliation(_ id: String, at date: Date) {
        let context = self
        environment.scheduler.schedule(at: date, label: "khipu conciliation \(id)") { await context.conciliate(id) }
    }

    /// Reconciles `id` now (if it is still verifying) and sends its notification.
    @discardableResult
    func conciliate(_ id: String) async -> KhipuPayment? {
        let now = environment.clock.now()
        guard let (payment, notification) = store.withState({ $0.conciliate(id, now: now) }) else { return nil }
        if let notification { await deliver(notification) }
        return payment
    }

    /// Sends a notification through the shared dispatcher with the account's retry schedule; every attempt is logged.
    func deliver(_ notification: KhipuState.Notification, retries: WebhookRetrySchedule? = nil) async {
        let schedule = retries ?? store.withState { $0.account.notificationRetries }
        let store = self.store
        let apiVersion = notification.headers.contains { $0.name == "x-khipu-signature" } ? "3.0" : "1.3"
        let webhook = Webhook(provider: "khipu", url: notification.url, headers: notification.headers, body: notification.body, schedule: schedule)
        _ = await environment.webhooks.deliver(webhook) { attempt in
            let entry = Value.object([
                "payment_id": .string(notification.paymentId), "url": .string(notification.url), "attempt": .int(attempt.attempt),
                "api_version": .string(apiVersion), "responseStatus": attempt.status.map { .int($0) } ?? .null,
                "error": attempt.error.map { .string($0) } ?? .null,
                "headers": .object(Dictionary(notification.headers.map { ($0.name, Value.string($0.value)) }, uniquingKeysWith: { a, _ in a })),
                "body": .string(String(decoding: notification.body, as: UTF8.self)),
                "sentAt": .string(ISOTimestamp.format(attempt.sentAt)),
            ])
            store.withState { $0.deliveries.append(entry) }
        }
    }
}
