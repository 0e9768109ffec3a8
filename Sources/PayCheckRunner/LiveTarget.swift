package import PayCheckProviders

/// A live target: the built-in `sandbox` (each provider's documented sandbox, credentials from
/// `PAYCHECK_<PROVIDER>_<FIELD>`), or a target a profile names (``TargetProfile``), which may change any provider's
/// base URL, credential sources, time limit, rate limit and concurrency, and the TLS the run's client uses.
/// Every live target runs through the same code path: no control API, the provider's own signing, retries of
/// service failures (``LiveTransport``).
package struct LiveTarget: Sendable, Hashable {
    /// The name `--target` takes: `sandbox`, or the profile's key.
    package var name: String
    /// The profile file it comes from; `nil` for the built-in sandbox.
    package var profile: String?
    /// What the target sets per provider id. On a profile's target a provider it does not name is not part of it
    /// (``includes(_:)``); on the built-in sandbox every provider uses its sandbox and `PAYCHECK_…` variables.
    package var providers: [String: Endpoint] = [:]
    /// The TLS the run's HTTP client uses, for every provider without its own (``Endpoint/tls``).
    package var tls = TLSOptions()
    /// The default time limit of one exchange on this target (a step's `timeout:` and a provider's still win).
    package var timeout: Double?
    /// The retries of service failures (connection, timeout, 429, 5xx).
    package var retry = RetryPolicy()

    /// The built-in `sandbox` target.
    package static let sandbox = LiveTarget(name: "sandbox")

    /// Creates a target.
    package init(name: String, profile: String? = nil) {
        self.name = name
        self.profile = profile
    }

    /// A target whose providers answer at `baseURLs`, by provider id (a recording's, the mock's).
    package init(name: String, profile: String? = nil, baseURLs: [String: String]) {
        self.init(name: name, profile: profile)
        for (id, url) in baseURLs { providers[id, default: Endpoint()].baseURL = url }
    }

    /// The mock host at `base` as a live target: each provider at its mock base path.
    package static func mock(at base: String, providers: [any Provider], name: String = "mock", profile: String? = nil) -> LiveTarget {
        LiveTarget(
            name: name, profile: profile,
            baseURLs: Dictionary(
                uniqueKeysWithValues: providers.map { provider in
                    (provider.id, base + (provider.mockBasePaths.first ?? "/" + provider.id))
                }))
    }

    /// One provider on this target.
    package struct Endpoint: Sendable, Hashable {
        /// The API's base URL (the provider's sandbox when `nil`).
        package var baseURL: String?
        /// Where each credential field comes from; a field not named here comes from its `PAYCHECK_…` variable.
        package var credentials: [String: Credential] = [:]
        /// The time limit of one exchange with this provider.
        package var timeout: Double?
        /// At most this many requests to the provider per period.
        package var rateLimit: RateLimit?
        /// At most this many requests to the provider in flight at once.
        package var concurrency: Int?
        /// The provider's own TLS (a host behind another CA, a client certificate only it asks for), instead of the
        /// target's.
        package var tls: TLSOptions?

        /// Creates an endpoint that changes nothing.
        package init() {}
    }

    /// Where a credential's value comes from.
    package enum Credential: Sendable, Hashable, CustomStringConvertible {
        /// An environment variable (`${NAME}` in a profile): the only form a secret may take.
        case environment(String)
        /// A value written in the profile: only for fields that are not secret (a login, an account id).
        case literal(String)

        /// `${NAME}`, or the literal value.
        package var description: String {
            switch self {
            case .environment(let name): "${\(name)}"
            case .literal(let value): value
            }
        }
    }

    /// A request budget: `requests` per `seconds`.
    package struct RateLimit: Sendable, Hashable, CustomStringConvertible {
        /// How many requests.
        package var requests: Int
        /// In how many seconds.
        package var seconds: Double

        /// Creates a budget.
        package init(requests: Int, seconds: Double) {
            self.requests = requests
            self.seconds = seconds
        }

        /// The time between two requests at the limit.
        package var interval: Double { seconds / Double(requests) }

        /// `5/s`, `300/min`.
        package var description: String { seconds == 60 ? "\(requests)/min" : seconds == 1 ? "\(requests)/s" : "\(requests)/\(seconds)s" }
    }

    /// TLS files, each a PEM path (relative paths are resolved against the profile's folder when it is read).
    package struct TLSOptions: Sendable, Hashable {
        /// The CA bundle the server's certificate must chain to (the system's trust store when `nil`).
        package var ca: String?
        /// A client certificate (chain) to present.
        package var certificate: String?
        /// The client certificate's private key.
        package var key: String?

        /// Creates options that change nothing.
        package init(ca: String? = nil, certificate: String? = nil, key: String? = nil) {
            self.ca = ca
            self.certificate = certificate
            self.key = key
        }

        /// Whether the options change the client's TLS at all.
        package var isDefault: Bool { ca == nil && certificate == nil && key == nil }
    }

    /// How service failures are retried on a live target (DESIGN.md §3: class S, never a conformance failure).
    package struct RetryPolicy: Sendable, Hashable {
        /// Attempts in all, the first included (1 = no retry).
        package var attempts = 3
        /// The wait before the first retry, doubled before each next one.
        package var backoff = 0.5
        /// The longest wait between two attempts, `Retry-After` included.
        package var cap = 10.0

        /// Creates the default policy.
        package init() {}
    }

    /// Whether `provider` is part of this target: every provider on the built-in sandbox (and a replay), only the ones
    /// a profile's target names — it never falls back to a provider's public sandbox host.
    package func includes(_ provider: any Provider) -> Bool {
        profile == nil || providers[provider.id] != nil
    }

    /// The provider's API base URL on this target.
    package func baseURL(for provider: any Provider) -> String {
        providers[provider.id]?.baseURL ?? provider.sandboxBaseURL
    }

    /// Where `field` of `provider` comes from on this target.
    package func source(of field: CredentialField, for provider: any Provider) -> Credential {
        providers[provider.id]?.credentials[field.name] ?? .environment(field.environmentVariable)
    }

    /// The credentials of `provider` that are set, read from `environment` where the target says so.
    package func credentials(for provider: any Provider, environment: [String: String]) -> [String: String] {
        guard includes(provider) else { return [:] }
        var values: [String: String] = [:]
        for field in provider.credentialFields {
            switch source(of: field, for: provider) {
            case .environment(let name): if let value = environment[name], !value.isEmpty { values[field.name] = value }
            case .literal(let value): values[field.name] = value
            }
        }
        return values
    }

    /// The environment variable `field` of `provider` is read from on this target (`nil` for a literal).
    package func variable(of field: CredentialField, for provider: any Provider) -> String? {
        if case .environment(let name) = source(of: field, for: provider) { name } else { nil }
    }
}
