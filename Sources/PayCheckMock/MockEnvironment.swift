import Hummingbird
import PayCheckProviders

/// The shared services handed to every ``ProviderMock`` when it registers its routes.
public struct MockEnvironment: Sendable {
    /// The clocks of every clock scope; ``clock`` picks the one of the current request.
    public var clockScopes: MockClockScopes
    /// The request journal of the host.
    public var journal: RequestJournal
    /// The host's own base URL, e.g. `http://127.0.0.1:54321`; known once the server is bound.
    ///
    /// Before binding (and in `.router` tests) it returns `http://localhost`.
    public var baseURL: @Sendable () -> String
    /// Sends webhooks and other outbound requests; prefer ``webhooks`` for webhooks (retries, log).
    public var outbound: any OutboundHTTP
    /// Jobs on the mock clock (expiry, delayed outcomes).
    public var scheduler: MockScheduler
    /// Delivers webhooks with retries on the mock clock; `GET /__paycheck/webhooks` lists the attempts.
    public var webhooks: WebhookDispatcher
    /// Idempotency keys of every provider.
    public var idempotency: IdempotencyStore<HTTPResponseData>

    /// Mock time of the current request's clock scope (``ClockScope/current``; the default scope outside a
    /// request); use it for expiry, seed windows and timestamps instead of `Date()`.
    public var clock: MockClock {
        self.clockScopes.current
    }

    /// Creates an environment from its parts.
    public init(
        clockScopes: MockClockScopes,
        journal: RequestJournal,
        baseURL: @escaping @Sendable () -> String,
        outbound: any OutboundHTTP,
        scheduler: MockScheduler,
        webhooks: WebhookDispatcher,
        idempotency: IdempotencyStore<HTTPResponseData>
    ) {
        self.clockScopes = clockScopes
        self.journal = journal
        self.baseURL = baseURL
        self.outbound = outbound
        self.scheduler = scheduler
        self.webhooks = webhooks
        self.idempotency = idempotency
    }

    /// Creates an environment over `clock` with fresh services (a scheduler, a dispatcher sending through
    /// `outbound`, an empty idempotency store).
    public init(
        clock: MockClock,
        journal: RequestJournal,
        baseURL: @escaping @Sendable () -> String,
        outbound: any OutboundHTTP
    ) {
        let scopes = MockClockScopes(defaultClock: clock)
        let scheduler = MockScheduler(scopes: scopes)
        self.init(
            clockScopes: scopes, journal: journal, baseURL: baseURL, outbound: outbound, scheduler: scheduler,
            webhooks: WebhookDispatcher(
                transport: OutboundWebhookTransport(outbound: outbound), scheduler: scheduler, scopes: scopes),
            idempotency: IdempotencyStore())
    }
}
