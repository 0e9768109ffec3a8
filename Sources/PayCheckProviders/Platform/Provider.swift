package import Foundation
package import PayCheckCore

/// A payment provider, declared as data plus a few pure functions (DESIGN.md §1).
///
/// The shared ``ProviderExecutor`` runs every provider step from these declarations: `call:` operations
/// (``ProviderOperation``), `payer:`/`mock:` control actions (``ControlAction``, served by the provider's mock
/// under the same names) and local actions (`redirect:`, `deeplink:`, local `call:` operations). Lint reads the
/// same declarations through ``description``. Mocks live in PayCheckMock; this protocol knows nothing of servers.
package protocol Provider: Sendable {
    /// The id used in `provider:`, in the mock's paths and in `PAYCHECK_<ID>_…` variables.
    var id: String { get }
    /// The credential fields, which are secret, and their environment variables for `--target sandbox`.
    var credentialFields: [CredentialField] { get }
    /// The fixed public test credentials the PayCheck mock accepts.
    var mockCredentials: [String: String] { get }
    /// The documented sandbox base URL.
    var sandboxBaseURL: String { get }
    /// The provider's API base paths on the mock host; the first is the adapter's base URL on a mock target.
    var mockBasePaths: [String] { get }
    /// Native state → canonical outcome.
    var outcomeMapping: OutcomeMapping { get }
    /// Native error codes with their classes.
    var errorCatalog: ErrorCatalog { get }
    /// The `call:` operations sent over HTTP.
    var operations: [ProviderOperation] { get }
    /// The `payer:` and provider `mock:` actions its mock serves.
    var controlActions: [ControlAction] { get }
    /// Actions answered without HTTP, by step kind (`redirect`, `deeplink`, local `call` operations).
    var localActions: [ProviderAction.Kind: [ActionSpec]] { get }
    /// Field names whose values are secret wherever they appear (request bodies, control actions, journals).
    var secretFieldNames: [String] { get }

    /// Adds the credentials a request carries in its content, before it is encoded: a key header, PlacetoPay's
    /// `auth` object in the body; lists derived secrets in `request.secrets`. A pure function of the request, the
    /// context's credentials, clock and random bytes, and `request.auth`.
    func authorize(_ request: inout OutgoingRequest, context: ProviderContext) throws
    /// Signs the request as it goes on the wire (method, path and query as sent, headers, final body bytes), after
    /// it is encoded: a signature that covers the request, such as khipu 2.0's HMAC. By default nothing.
    func sign(_ request: inout SignableRequest, context: ProviderContext) throws
    /// Writes a body for an operation whose codec is ``ProviderOperation/BodyCodec/provider(contentType:)``.
    func encodeBody(_ body: Value, for operation: ProviderOperation, credentials: [String: String]) throws -> [UInt8]
    /// Reads an operation's answer: parsed body, mapped outcome, catalog error.
    func read(_ response: HTTPResponseData, of operation: ProviderOperation) throws -> Observation
    /// Reads an operation's answer with the target's context at hand (its credentials, e.g. to decrypt the answer);
    /// by default ``read(_:of:)``.
    func read(_ response: HTTPResponseData, of operation: ProviderOperation, context: ProviderContext) throws -> Observation
    /// What a provider's client makes of an operation that got no HTTP answer (refused connection, timeout), or `nil`
    /// to let the failure stand as a transport error; by default `nil`.
    func unanswered(_ failure: any Error, of operation: ProviderOperation, context: ProviderContext) -> Observation?
    /// Reads a control action's answer (e.g. the outcome of what the payer did).
    func readControl(_ observation: Observation, action: ControlAction) throws -> Observation
    /// Performs a local action.
    func performLocal(_ kind: ProviderAction.Kind, _ name: String, parameters: Value, context: ProviderContext) throws -> Observation
    /// Why these sandbox credentials would move real money (a live key), or `nil`; such a run needs `--allow-live`.
    func liveCredentialWarning(_ credentials: [String: String]) -> String?
    /// The media types the provider's API answers in (matched as substrings of `Content-Type`, e.g. `json`); a 2xx
    /// answer in another one, empty, or (for `json`) unreadable is an S-class service failure (DESIGN.md §3).
    var answerMediaTypes: [String] { get }
    /// What `paycheck drift` lets differ between a recording of the live API and the mock: globs over an answer's
    /// field names (`*_id`), or over whole paths when they have a dot (`status.date`), whose values legitimately
    /// change between two runs — ids, timestamps, signatures, URLs with their host, free-text messages.
    var driftNoise: [String] { get }
    /// What a replay (`--target replay=DIR`) lets differ between a recorded request body and the one a suite sends
    /// now: the same globs as ``driftNoise``, over the request's fields whose values depend on the clock (a timestamp,
    /// a seed) or are computed from them (a signature). Everything else must be as recorded.
    var replayNoise: [String] { get }
    /// The rules the mock checks a merchant's requests against (``MerchantRule``).
    var merchantRules: [MerchantRule] { get }
    /// The account a merchant's backend gets for a run in clock scope `scope`, notified at `notificationURL`;
    /// `secret` is a fresh random value the account may use as its secret.
    func merchantAccount(scope: String, notificationURL: String?, secret: String) -> MerchantAccount
    /// Why a contract's `notificationUrl` does nothing for this provider, or `nil` when ``merchantAccount(scope:notificationURL:secret:)``
    /// installs it (the provider keeps it in the account's settings).
    var contractNotificationURLUnused: String? { get }
}

extension Provider {
    /// JSON (`application/json`, `application/hal+json`, …).
    package var answerMediaTypes: [String] { ["json"] }

    /// The noise every provider shares: ids, timestamps, URLs, signatures and tokens.
    static var commonDriftNoise: [String] {
        ["id", "*_id", "*Id", "*ID", "*_at", "*At", "*date*", "*time*", "*expir*", "*url*", "*uri*", "href", "*token*", "*signature*", "*hash*", "*secret*"]
    }

    /// ``commonDriftNoise``; a provider adds its own next to its adapter.
    package var driftNoise: [String] { Self.commonDriftNoise }

    /// What differs between two runs of the same request on every provider: timestamps and what is computed from them.
    static var commonReplayNoise: [String] { ["*date*", "*time*", "*expir*", "*_at", "*At", "*signature*", "*hash*"] }

    /// ``commonReplayNoise``; a provider adds its own next to its adapter.
    package var replayNoise: [String] { Self.commonReplayNoise }
    /// No merchant rules.
    package var merchantRules: [MerchantRule] { [] }
    /// The mock's own credentials, nothing to set up.
    package func merchantAccount(scope: String, notificationURL: String?, secret: String) -> MerchantAccount {
        MerchantAccount(credentials: mockCredentials)
    }
    /// The backend gives the provider its notification URL itself.
    package var contractNotificationURLUnused: String? {
        "\(id) takes the notification URL from the backend itself, with each payment it creates"
    }
    /// `/<id>`.
    package var mockBasePaths: [String] { ["/" + id] }
    /// None.
    package var controlActions: [ControlAction] { [] }
    /// None.
    package var localActions: [ProviderAction.Kind: [ActionSpec]] { [:] }
    /// The secret credential fields.
    package var secretFieldNames: [String] { credentialFields.filter(\.secret).map(\.name) }

    /// Nothing: most providers authenticate with a credential placed before encoding (``authorize(_:context:)``).
    package func sign(_ request: inout SignableRequest, context: ProviderContext) throws {}

    /// Refuses: the provider declared no own codec.
    package func encodeBody(_ body: Value, for operation: ProviderOperation, credentials: [String: String]) throws -> [UInt8] {
        throw ProviderError.invalidStep("\(id) has no body codec of its own for '\(operation.name)'")
    }

    /// None: the provider's sandbox credentials cannot be live ones.
    package func liveCredentialWarning(_ credentials: [String: String]) -> String? { nil }

    /// The parsed answer, unmapped.
    package func read(_ response: HTTPResponseData, of operation: ProviderOperation) throws -> Observation {
        return response.plainObservation
    }

    /// ``read(_:of:)``: the context is not needed.
    package func read(_ response: HTTPResponseData, of operation: ProviderOperation, context: ProviderContext) throws -> Observation {
        try read(response, of: operation)
    }

    /// `nil`: a request without an answer is a transport error.
    package func unanswered(_ failure: any Error, of operation: ProviderOperation, context: ProviderContext) -> Observation? { nil }

    /// The answer as it is.
    package func readControl(_ observation: Observation, action: ControlAction) throws -> Observation { observation }

    /// Refuses: the provider declared no local actions.
    package func performLocal(_ kind: ProviderAction.Kind, _ name: String, parameters: Value, context: ProviderContext) throws -> Observation {
        throw ProviderError.invalidStep("\(id) has no local \(kind.rawValue) action '\(name)'")
    }

    /// The lint description, derived from the declarations.
    package var description: ProviderDescription {
        var specs: [ProviderAction.Kind: [ActionSpec]] = localActions
        specs[.call, default: []].insert(contentsOf: operations.map(\.spec), at: 0)
        for action in controlActions { specs[action.kind, default: []].append(action.spec) }
        var description = ProviderDescription(id: id, specs: specs)
        description.contractNotificationURLUnused = contractNotificationURLUnused
        description.credentialNames = credentialFields.map(\.name)
        return description
    }

    /// Maps a native state (and reason) through the outcome table into `observation`; an unmapped state is a
    /// conformance failure (DESIGN.md §3).
    package func map(_ state: String, reason: String?, in context: String, into observation: inout Observation) throws {
        guard let rule = outcomeMapping.rule(state: state, reason: reason) else {
            let native = reason.map { "\(state)/\($0)" } ?? state
            throw ProviderError.nonConformance(
                "unmapped \(id) state '\(native)' in \(context)",
                expected: "a state of the outcome mapping (" + Set(outcomeMapping.rules.map(\.state)).sorted().joined(separator: ", ") + ")")
        }
        observation.outcome = rule.outcome
        observation.nativeState = rule.key
    }
}

/// A credential a provider needs.
package struct CredentialField: Sendable, Hashable {
    /// The field name, e.g. `login`, `secretKey`.
    package var name: String
    /// Whether its value must be redacted everywhere.
    package var secret: Bool
    /// The environment variable that supplies it for the sandbox, e.g. `PAYCHECK_PLACETOPAY_SECRET_KEY`.
    package var environmentVariable: String
    /// Whether a sandbox run needs it; an optional field (a second product's credentials, a service URL) is used when
    /// set and neither skips the provider nor makes it "partly configured" when absent.
    package var required: Bool
    /// Whether the provider publishes it (it ships inside the merchant's app, as Yuno's public API key does): still
    /// redacted in every output, but a target profile may write it in clear.
    package var publishable = false

    /// Creates a field.
    package init(name: String, secret: Bool, environmentVariable: String, required: Bool = true, publishable: Bool = false) {
        self.name = name
        self.secret = secret
        self.environmentVariable = environmentVariable
        self.required = required
        self.publishable = publishable
    }
}

/// One provider-dispatched step with its parameters rendered.
package struct ProviderActionRequest: Sendable {
    /// The step kind.
    package var kind: ProviderAction.Kind
    /// The operation or action name.
    package var name: String
    /// The rendered `with:` parameters.
    package var parameters: Value
    /// The rendered `auth:` overrides, if any.
    package var auth: Value?

    /// Creates a request.
    package init(kind: ProviderAction.Kind, name: String, parameters: Value, auth: Value?) {
        self.kind = kind
        self.name = name
        self.parameters = parameters
        self.auth = auth
    }
}

/// What a provider may use while performing an action.
package struct ProviderContext: Sendable {
    /// The provider's API base URL on the current target.
    package var baseURL: String
    /// The mock host's base URL (control API under `/__paycheck/`), or `nil` on a live target.
    package var controlURL: String?
    /// The credentials for this target.
    package var credentials: [String: String]
    /// The runner's clock.
    package var now: @Sendable () -> Date
    /// Random bytes (nonces, ids).
    package var randomBytes: @Sendable (Int) -> [UInt8]
    /// Sends a request through the runner's transport (recorded in the transcript, redacted).
    package var send: @Sendable (HTTPRequestData) async throws -> HTTPResponseData
    /// Registers a value to redact from every output (a derived signature, a token).
    package var addSecret: @Sendable (String) -> Void

    /// Creates a context.
    package init(
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

/// The registered providers, looked up by id. Also the loader's catalog.
package struct ProviderRegistry: ProviderCatalog {
    private let providers: [String: any Provider]

    /// Creates a registry of the given providers.
    package init(_ providers: [any Provider]) {
        self.providers = Dictionary(providers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The provider with this id.
    package subscript(id: String) -> (any Provider)? { providers[id] }

    /// The lint description of a provider.
    package func provider(_ id: String) -> ProviderDescription? { providers[id]?.description }

    /// The executor of a provider's steps.
    package func executor(_ id: String) -> ProviderExecutor? { providers[id].map(ProviderExecutor.init(provider:)) }

    /// Every id, sorted.
    package var providerIDs: [String] { providers.keys.sorted() }

    /// Every provider, sorted by id.
    package var all: [any Provider] { providerIDs.compactMap { providers[$0] } }
}
