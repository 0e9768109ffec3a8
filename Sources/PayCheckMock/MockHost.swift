import Hummingbird
import Logging
import Synchronization

/// The embedded mock server: one ``ProviderMock`` per provider plus the control API under `/__paycheck/`.
///
/// Use ``makeRouter()`` for socket-free tests, ``run(host:port:handleSignals:onRunning:)`` to serve
/// until cancelled, or ``withRunningMock(_:port:_:)`` to serve for the duration of a closure.
public final class MockHost: Sendable {
    /// The hosted provider mocks, in registration order.
    public let providers: [any ProviderMock]
    /// Mock time shared by the host and every provider.
    public let clock: MockClock
    /// Every request received outside the control API (plus echo and key-value requests).
    public let journal: RequestJournal
    /// The logger of the server.
    public let logger: Logger
    /// Sender for webhooks and other outbound requests.
    public let outbound: any OutboundHTTP
    /// The store behind `/__paycheck/kv`.
    let keyValueStore = KeyValueStore()
    /// Pending faults injected through `/__paycheck/faults`.
    let faults = FaultRegistry()
    /// Fires when the host starts shutting down, ending `delay` faults early.
    let shutdown = ShutdownSignal()
    /// The base URL once the server is bound.
    private let boundBaseURL = BoundBaseURL()

    /// Creates a host for `providers`.
    /// - Parameters:
    ///   - providers: The provider mocks to serve, each under `/{id}/`; ids must be unique.
    ///   - clock: Mock time; inject a fixed base in tests.
    ///   - logger: The server logger; defaults to a logger labelled `paycheck.mock` at `warning`.
    ///   - outbound: Sender for webhooks; the default throws a clear error when used.
    public init(
        providers: [any ProviderMock],
        clock: MockClock = MockClock(),
        logger: Logger? = nil,
        outbound: any OutboundHTTP = NoOutboundHTTP()
    ) {
        self.providers = providers
        self.clock = clock
        self.journal = RequestJournal()
        self.logger =
            logger
            ?? {
                var logger = Logger(label: "paycheck.mock")
                logger.logLevel = .warning
                return logger
            }()
        self.outbound = outbound
    }

    /// The server's own base URL, e.g. `http://127.0.0.1:54321`, or `http://localhost` before it is bound.
    public var baseURL: String {
        self.boundBaseURL.value
    }

    /// The environment handed to provider mocks.
    public var environment: MockEnvironment {
        MockEnvironment(
            clock: self.clock,
            journal: self.journal,
            baseURL: { [boundBaseURL] in boundBaseURL.value },
            outbound: self.outbound
        )
    }

    /// Builds a router with the host middleware, the control API and every provider's routes.
    ///
    /// Each call builds a fresh router over the same state. Use it with HummingbirdTesting's
    /// `.router` framework: `Application(router: host.makeRouter()).test(.router) { … }`.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        // Middleware only wraps routes added after it, so it goes first.
        router.add(middleware: MockMiddleware(clock: self.clock, journal: self.journal, faults: self.faults, shutdown: self.shutdown))
        ControlRoutes(host: self).register(on: router)
        let environment = self.environment
        for provider in self.providers {
            provider.register(on: router, environment: environment)
        }
        return router
    }

    /// Clears the journal, key-value store, faults and clock offset, then resets every provider.
    public func reset() async {
        self.journal.clear()
        self.keyValueStore.reset()
        self.faults.clear()
        self.clock.reset()
        for provider in self.providers {
            await provider.reset()
        }
    }

    /// Records the address the server is bound to.
    func didBind(host: String, port: Int) {
        let authority = host.contains(":") ? "[\(host)]" : host
        self.boundBaseURL.set("http://\(authority):\(port)")
    }
}

/// The server's base URL, shared with provider mocks without retaining the host.
private final class BoundBaseURL: Sendable {
    /// The URL once bound; `nil` before.
    private let url = Mutex<String?>(nil)

    /// The bound URL, or `http://localhost` before binding.
    var value: String {
        self.url.withLock { $0 } ?? "http://localhost"
    }

    /// Records the bound URL.
    func set(_ url: String) {
        self.url.withLock { $0 = url }
    }
}
