import Hummingbird

/// The shared services handed to every ``ProviderMock`` when it registers its routes.
public struct MockEnvironment: Sendable {
    /// Mock time; use it for expiry, seed windows and timestamps instead of `Date()`.
    public var clock: MockClock
    /// The request journal of the host.
    public var journal: RequestJournal
    /// The host's own base URL, e.g. `http://127.0.0.1:54321`; known once the server is bound.
    ///
    /// Before binding (and in `.router` tests) it returns `http://localhost`.
    public var baseURL: @Sendable () -> String
    /// Sends webhooks and other outbound requests.
    public var outbound: any OutboundHTTP

    /// Creates an environment from its parts.
    public init(
        clock: MockClock,
        journal: RequestJournal,
        baseURL: @escaping @Sendable () -> String,
        outbound: any OutboundHTTP
    ) {
        self.clock = clock
        self.journal = journal
        self.baseURL = baseURL
        self.outbound = outbound
    }
}
