package import Hummingbird
package import PayCheckCore
package import PayCheckProviders
package import Logging
import Synchronization

/// The embedded mock server: one ``ProviderMock`` per provider plus the control API under `/__paycheck/`.
///
/// Use ``makeRouter()`` for socket-free tests, ``run(host:port:handleSignals:onRunning:)`` to serve
/// until cancelled, or ``withRunningMock(_:port:_:)`` to serve for the duration of a closure.
package final class MockHost: Sendable {
    /// The hosted provider mocks, in registration order.
    package let providers: [any ProviderMock]
    /// Mock time of the default clock scope (requests without the ``ClockScope/headerName`` header).
    package let clock: MockClock
    /// The clocks of every clock scope, the default one being ``clock``.
    package let clockScopes: MockClockScopes
    /// Jobs on the mock clock; due jobs run when the clock route moves time and as real time passes.
    package let scheduler: MockScheduler
    /// Delivers provider webhooks with retries on the mock clock; `GET /__paycheck/webhooks` lists attempts.
    package let webhooks: WebhookDispatcher
    /// Idempotency keys of every provider.
    package let idempotency = IdempotencyStore<HTTPResponseData>()
    /// Every request received outside the control API (plus echo and key-value requests).
    package let journal: RequestJournal
    /// Example merchant backends served next to their provider's mock (``ReferenceMerchant``).
    package let merchants: [any ReferenceMerchant]
    /// Who may drive the control API and where notifications may go (loopback only by default).
    package let policy: NetworkPolicy
    /// The host's outbound sender under ``policy``: webhooks and reference merchants send through it.
    package let outbound: any OutboundHTTP
    /// The logger of the server.
    package let logger: Logger
    /// What the host keeps and accepts.
    package let limits: MockLimits
    /// The store behind `/__paycheck/kv`.
    let keyValueStore: KeyValueStore
    /// Pending faults injected through `/__paycheck/faults`.
    let faults: FaultRegistry
    /// Fires when the host starts shutting down, ending `delay` faults early.
    let shutdown = ShutdownSignal()
    /// The base URL once the server is bound.
    private let boundBaseURL: BoundBaseURL

    /// Creates a host for `providers`.
    /// - Parameters:
    ///   - providers: The provider mocks to serve, each under `/{id}/`; ids must be unique.
    ///   - clock: Mock time; inject a fixed base in tests.
    ///   - logger: The server logger; defaults to a logger labelled `paycheck.mock` at `warning`.
    ///   - outbound: Sender for webhooks; the default throws a clear error when used.
    ///   - webhookTransport: Sends webhook attempts; defaults to ``OutboundWebhookTransport`` over `outbound`
    ///     (tests inject a fake receiver).
    ///   - policy: Who may drive the control API and where `outbound` may send; loopback only by default.
    ///   - limits: What the host keeps and accepts (journal, key-value store, webhook log, bodies, timeouts).
    package init(
        providers: [any ProviderMock],
        clock: MockClock = MockClock(),
        logger: Logger? = nil,
        outbound: any OutboundHTTP = NoOutboundHTTP(),
        webhookTransport: (any WebhookTransport)? = nil,
        policy: NetworkPolicy = NetworkPolicy(),
        limits: MockLimits = MockLimits()
    ) {
        self.limits = limits
        for provider in providers { provider.apply(limits) }
        self.keyValueStore = KeyValueStore(capacity: limits.keyValueEntries, byteCapacity: limits.keyValueBytes)
        let outbound = PolicedOutbound(base: outbound, policy: policy)
        self.outbound = outbound
        self.policy = policy
        let boundBaseURL = BoundBaseURL()
        self.boundBaseURL = boundBaseURL
        self.providers = providers
        self.faults = FaultRegistry(providers: providers.map(\.provider))
        self.clock = clock
        self.clockScopes = MockClockScopes(defaultClock: clock)
        self.scheduler = MockScheduler(scopes: self.clockScopes)
        let journal = RequestJournal(capacity: limits.journalEntries, byteCapacity: limits.journalBytes)
        self.journal = journal
        self.webhooks = WebhookDispatcher(
            transport: webhookTransport ?? OutboundWebhookTransport(outbound: outbound), scheduler: self.scheduler,
            scopes: self.clockScopes, maximumLogEntries: limits.webhookLogEntries, faults: self.faults,
            numbering: { journal.takeSequence() })
        self.merchants = MockRegistry.referenceMerchants(
            for: providers, baseURL: { boundBaseURL.value }, outbound: outbound)
        self.logger =
            logger
            ?? {
                var logger = Logger(label: "paycheck.mock")
                logger.logLevel = .warning
                return logger
            }()
    }

    /// Injects a fault as `POST /__paycheck/faults` would (``FaultSpec``), for a host driven from code.
    /// - Throws: ``MockHTTPError`` with the problem when the fault is invalid.
    package func inject(fault: [String: Value]) throws(MockHTTPError) {
        _ = try self.faults.add(json: fault)
    }

    /// The server's own base URL, e.g. `http://127.0.0.1:54321`, or `http://localhost` before it is bound.
    package var baseURL: String {
        self.boundBaseURL.value
    }

    /// The environment handed to provider mocks.
    package var environment: MockEnvironment {
        MockEnvironment(
            clockScopes: self.clockScopes,
            journal: self.journal,
            baseURL: { [boundBaseURL] in boundBaseURL.value + ScopedRequest.baseSuffix },
            scheduler: self.scheduler,
            webhooks: self.webhooks,
            idempotency: self.idempotency
        )
    }

    /// Builds a router with the host middleware, the control API and every provider's routes.
    ///
    /// Each call builds a fresh router over the same state. Use it with HummingbirdTesting's
    /// `.router` framework: `Application(router: host.makeRouter()).test(.router) { … }`.
    package func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        // Middleware only wraps routes added after it, so it goes first.
        router.add(
            middleware: MockMiddleware(
                clock: self.clock, journal: self.journal, faults: self.faults, shutdown: self.shutdown, policy: self.policy,
                boundHost: { [boundBaseURL] in boundBaseURL.host }, secretFields: Self.secretFields(of: self.providers),
                malformedBodies: Self.malformedBodies(of: self.providers), limits: self.limits,
                errorAnswers: self.providers.flatMap { mock in mock.provider.mockBasePaths.map { (prefix: $0, mock: mock) } }))
        router.add(middleware: ClockScopeMiddleware(scopes: self.clockScopes))
        ControlRoutes(host: self).register(on: router)
        let environment = self.environment
        for provider in self.providers {
            provider.register(on: router, environment: environment)
        }
        for merchant in self.merchants {
            merchant.register(on: router)
        }
        return router
    }

    /// Clears the journal, key-value store, faults, clock scopes and offset, scheduled jobs, the webhook log and
    /// idempotency keys, then resets every provider and reference merchant.
    package func reset() async {
        self.journal.clear()
        self.keyValueStore.reset()
        self.faults.clear()
        self.scheduler.cancelAll()
        self.webhooks.reset()
        self.idempotency.reset()
        self.clockScopes.reset()
        for provider in self.providers {
            await provider.reset()
        }
        for merchant in self.merchants {
            await merchant.reset()
        }
    }

    /// Records the address the server is bound to.
    func didBind(host: String, port: Int, secure: Bool = false) {
        let authority = host.contains(":") ? "[\(host)]" : host
        self.boundBaseURL.set("\(secure ? "https" : "http")://\(authority):\(port)", host: authority)
    }

    /// Each provider's base paths with the body a `malformed` fault answers there (its codec's, e.g. MIT's envelope).
    private static func malformedBodies(of providers: [any ProviderMock]) -> [(prefix: String, body: MalformedBody)] {
        providers.flatMap { mock in mock.provider.mockBasePaths.map { (prefix: $0, body: mock.malformedBody) } }
    }

    /// Each provider's base paths with the secret fields it declares, for the journal's redaction.
    private static func secretFields(of providers: [any ProviderMock]) -> [(prefix: String, names: Set<String>)] {
        providers.flatMap { mock in
            let names = Set(mock.provider.secretFieldNames.map { $0.lowercased() })
            return (mock.provider.mockBasePaths + [ControlAPI.providerRoot(mock.id)]).map { (prefix: $0, names: names) }
        }
    }
}

/// The server's base URL, shared with provider mocks without retaining the host.
private final class BoundBaseURL: Sendable {
    /// The URL and host once bound; `nil` before.
    private let bound = Mutex<(url: String, host: String)?>(nil)

    /// The bound URL, or `http://localhost` before binding.
    var value: String {
        self.bound.withLock { $0?.url } ?? "http://localhost"
    }

    /// The bound address (`127.0.0.1`, `[::1]`), `nil` before binding.
    var host: String? {
        self.bound.withLock { $0?.host }
    }

    /// Records the bound URL and address.
    func set(_ url: String, host: String) {
        self.bound.withLock { $0 = (url, host) }
    }
}
