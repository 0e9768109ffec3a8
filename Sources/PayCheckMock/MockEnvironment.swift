package import PayCheckCore
import Hummingbird
package import PayCheckProviders

/// The shared services handed to every ``ProviderMock`` when it registers its routes.
package struct MockEnvironment: Sendable {
    /// The clocks of every clock scope; ``clock`` picks the one of the current request.
    package var clockScopes: MockClockScopes
    /// The request journal of the host.
    package var journal: RequestJournal
    /// The host's own base URL, e.g. `http://127.0.0.1:54321`; known once the server is bound.
    ///
    /// Before binding (and in `.router` tests) it returns `http://localhost`. For a request a merchant's backend sent
    /// under the scoped root it ends with that root (``ControlAPI/scopedRoot(_:)``), so links stay in the scope.
    package var baseURL: @Sendable () -> String
    /// Jobs on the mock clock (expiry, delayed outcomes).
    package var scheduler: MockScheduler
    /// Delivers webhooks with retries on the mock clock; `GET /__paycheck/webhooks` lists the attempts. The only
    /// way a provider mock sends a webhook.
    package var webhooks: WebhookDispatcher
    /// Idempotency keys of every provider.
    package var idempotency: IdempotencyStore<HTTPResponseData>

    /// Mock time of the current request's clock scope (``ClockScope/current``; the default scope outside a
    /// request); use it for expiry, seed windows and timestamps instead of `Date()`.
    package var clock: MockClock {
        self.clockScopes.current
    }

    /// Creates an environment from its parts.
    package init(
        clockScopes: MockClockScopes,
        journal: RequestJournal,
        baseURL: @escaping @Sendable () -> String,
        scheduler: MockScheduler,
        webhooks: WebhookDispatcher,
        idempotency: IdempotencyStore<HTTPResponseData>
    ) {
        self.clockScopes = clockScopes
        self.journal = journal
        self.baseURL = baseURL
        self.scheduler = scheduler
        self.webhooks = webhooks
        self.idempotency = idempotency
    }
}
