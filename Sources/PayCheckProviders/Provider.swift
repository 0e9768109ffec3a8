import Foundation
import PayCheckCore

/// A payment provider: how to reach it, how to sign for it, how to read its answers.
///
/// The runner hands every provider-dispatched step (`call`, `payer`, provider `mock` actions,
/// `redirect`, `deeplink`) to `perform`, with a context that sends HTTP through the runner's
/// recording transport. Mocks live in PayCheckMock; this protocol knows nothing of servers.
public protocol Provider: Sendable {
    /// The id used in `provider:` and as the mock's path prefix.
    var id: String { get }
    /// The action names per step kind, for lint.
    var description: ProviderDescription { get }
    /// The credential fields, which are secret, and their environment variables for `--target sandbox`.
    var credentialFields: [CredentialField] { get }
    /// The fixed public test credentials the embedded mock accepts.
    var mockCredentials: [String: String] { get }
    /// The documented sandbox base URL.
    var sandboxBaseURL: String { get }
    /// Native state → canonical outcome.
    var outcomeMapping: OutcomeMapping { get }
    /// Native error codes with their classes.
    var errorCatalog: ErrorCatalog { get }
    /// Runs one action and reports what it observed.
    func perform(_ action: ProviderActionRequest, context: ProviderContext) async throws -> Observation
}

/// A credential a provider needs.
public struct CredentialField: Sendable, Hashable {
    /// The field name, e.g. `login`, `secretKey`.
    public var name: String
    /// Whether its value must be redacted everywhere.
    public var secret: Bool
    /// The environment variable that supplies it for the sandbox, e.g. `PAYCHECK_PLACETOPAY_SECRET_KEY`.
    public var environmentVariable: String

    /// Creates a field.
    public init(name: String, secret: Bool, environmentVariable: String) {
        self.name = name
        self.secret = secret
        self.environmentVariable = environmentVariable
    }
}

/// One provider-dispatched step with its parameters rendered.
public struct ProviderActionRequest: Sendable {
    /// The step kind.
    public var kind: ProviderAction.Kind
    /// The operation or action name.
    public var name: String
    /// The rendered `with:` parameters.
    public var parameters: Value
    /// The rendered `auth:` overrides, if any.
    public var auth: Value?

    /// Creates a request.
    public init(kind: ProviderAction.Kind, name: String, parameters: Value, auth: Value?) {
        self.kind = kind
        self.name = name
        self.parameters = parameters
        self.auth = auth
    }
}

/// What a provider may use while performing an action.
public struct ProviderContext: Sendable {
    /// The provider's API base URL on the current target.
    public var baseURL: String
    /// The mock host's base URL (control API under `/__paycheck/`), or `nil` on a live target.
    public var controlURL: String?
    /// The credentials for this target.
    public var credentials: [String: String]
    /// The runner's clock.
    public var now: @Sendable () -> Date
    /// Random bytes (nonces, ids).
    public var randomBytes: @Sendable (Int) -> [UInt8]
    /// Sends a request through the runner's transport (recorded in the transcript, redacted).
    public var send: @Sendable (HTTPRequestData) async throws -> HTTPResponseData
    /// Registers a value to redact from every output (a derived signature, a token).
    public var addSecret: @Sendable (String) -> Void

    /// Creates a context.
    public init(
        baseURL: String, controlURL: String?, credentials: [String: String], now: @escaping @Sendable () -> Date,
        randomBytes: @escaping @Sendable (Int) -> [UInt8],
        send: @escaping @Sendable (HTTPRequestData) async throws -> HTTPResponseData,
        addSecret: @escaping @Sendable (String) -> Void
    ) {
        self.baseURL = baseURL
        self.controlURL = controlURL
        self.credentials = credentials
        self.now = now
        self.randomBytes = randomBytes
        self.send = send
        self.addSecret = addSecret
    }
}

/// A provider failure that is not a conformance mismatch: bad parameters, a missing mock control URL…
public struct ProviderError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// The registered providers, looked up by id. Also the loader's catalog.
public struct ProviderRegistry: ProviderCatalog {
    private let providers: [String: any Provider]

    /// Creates a registry of the given providers.
    public init(_ providers: [any Provider]) {
        self.providers = Dictionary(providers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The registry of every built-in provider.
    public static var builtIn: ProviderRegistry { ProviderRegistry([PlacetoPayProvider()]) }

    /// The provider with this id.
    public subscript(id: String) -> (any Provider)? { providers[id] }

    /// The lint description of a provider.
    public func provider(_ id: String) -> ProviderDescription? { providers[id]?.description }

    /// Every id, sorted.
    public var providerIDs: [String] { providers.keys.sorted() }

    /// Every provider, sorted by id.
    public var all: [any Provider] { providerIDs.compactMap { providers[$0] } }
}
