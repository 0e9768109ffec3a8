package import PayCheckCore

/// A request a merchant's backend sent to the mock, as a rule sees it.
package struct MerchantRequest: Sendable {
    /// The HTTP method, e.g. `POST`.
    package var method: String
    /// The path below the provider's base path, e.g. `/api/session` (PlacetoPay) or `/v2/payments` (Mollie).
    package var path: String
    /// The headers as received.
    package var headers: [(name: String, value: String)]
    /// The body parsed as JSON or a form (`nil` when it is neither).
    package var body: Value?

    /// Creates a request.
    package init(method: String, path: String, headers: [(name: String, value: String)], body: Value?) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The first header named `name`, case-insensitively.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return self.headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Whether the `User-Agent` is a mobile app's own HTTP stack (iOS `CFNetwork`/`Darwin`, Android `okhttp`/
    /// `Dalvik`): a request signed with a secret from there means the secret ships inside the app.
    var comesFromMobileApp: Bool {
        let agent = (self.header("User-Agent") ?? "").lowercased()
        return ["cfnetwork", "darwin/", "okhttp", "dalvik", "alamofire", "ios/", "android"].contains { agent.contains($0) }
    }
}

/// A rule the mock checks every request of a merchant's backend against, declared next to the provider's adapter
/// (``Provider/merchantRules``).
package struct MerchantRule: Sendable {
    /// The rule: id, severity, explanation, source.
    package var rule: FindingRule
    /// Checks one request, answering one message per breach. `nil` for a rule the mock reports from its own state
    /// (a nonce ledger, its signature check) through ``MerchantFindingReport``.
    package var check: (@Sendable (MerchantRequest) -> [String])?

    /// Creates a rule.
    package init(_ rule: FindingRule, check: (@Sendable (MerchantRequest) -> [String])? = nil) {
        self.rule = rule
        self.check = check
    }

    /// A check that a URL the merchant gives the provider (return, webhook) uses `https`, loopback addresses
    /// aside (a backend under test listens on them).
    static func insecureURL(_ url: String?) -> Bool {
        guard let url, url.lowercased().hasPrefix("http://") else { return false }
        let host = url.dropFirst("http://".count).prefix { $0 != "/" && $0 != ":" && $0 != "?" }.lowercased()
        return
            !(host == "localhost" || host.hasPrefix("127.") || host == "[" || url.lowercased().hasPrefix("http://[::1]")
            || host.hasSuffix(".localhost"))
    }
}

/// What a provider mock says it found on a merchant's request from its own state: which rule, and the message.
struct MerchantFindingReport: Sendable, Hashable {
    /// The rule's id (one of the provider's ``Provider/merchantRules``).
    package var rule: String
    /// What was wrong.
    package var message: String

    /// Creates a report.
    package init(rule: String, message: String) {
        self.rule = rule
        self.message = message
    }
}

/// The account a merchant's backend is given for one run: its credentials and the control action that sets the
/// account up on the mock (where the provider keeps the notification URL in the account, as PlacetoPay's site).
package struct MerchantAccount: Sendable {
    /// The credentials, by ``CredentialField`` name.
    package var credentials: [String: String]
    /// The control action to perform first, if any.
    package var setup: ProviderActionRequest?

    /// Creates an account.
    package init(credentials: [String: String], setup: ProviderActionRequest? = nil) {
        self.credentials = credentials
        self.setup = setup
    }
}
