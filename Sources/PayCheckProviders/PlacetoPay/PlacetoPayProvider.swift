import Foundation
package import PayCheckCore

/// The PlacetoPay Checkout (WebCheckout) adapter: declarations, signer and reader (providers.md §1).
///
/// - `call:` operations are declared in ``operations`` (every endpoint is `POST` with a JSON body, §1.1); the
///   signer adds a fresh `auth` object (`PlacetoPayAuth`, §1.2) from the context's clock and random bytes, and
///   `auth:` overrides on the step make deliberate mis-signings (``PlacetoPayAuthOverrides``).
///   `verifyNotification` and `signNotification` run locally (§1.9).
/// - `payer:` and `mock:` actions are declared in ``controlActions`` and served by the PayCheck mock.
/// - `redirect: return|cancel` builds the browser return, which carries no trustworthy status (§1.11).
///
/// Observations carry `outcome` and `nativeState` for session- and transaction-shaped bodies and `error`
/// for every `FAILED` envelope, so the report's coverage matrix fills from real responses.
package struct PlacetoPayProvider: Provider {
    /// `placetopay`.
    package let id = "placetopay"
    /// The default `userAgent` field of created sessions when a step gives none.
    package var userAgent: String

    /// Creates the adapter; `userAgent` is sent in `createSession`/`collect` bodies that do not set one.
    package init(userAgent: String = "PayCheck") {
        self.userAgent = userAgent
    }

    /// `login` (public) and `secretKey` (secret), per site and environment (providers.md §6.1).
    package var credentialFields: [CredentialField] {
        [
            CredentialField(name: "login", secret: false, environmentVariable: "PAYCHECK_PLACETOPAY_LOGIN"),
            CredentialField(name: "secretKey", secret: true, environmentVariable: "PAYCHECK_PLACETOPAY_SECRET_KEY"),
        ]
    }

    /// The site the PayCheck mock knows out of the box.
    package var mockCredentials: [String: String] {
        ["login": "paycheck-test", "secretKey": "paycheck-test-secret-key"]
    }

    /// The documented global test environment (providers.md §1.1).
    package var sandboxBaseURL: String { "https://checkout-test.placetopay.com" }
    /// Drift noise: the status message is free text, and the processor's references are per payment (§1.4).
    package var driftNoise: [String] { Self.commonDriftNoise + ["status.message", "message", "internalReference", "authorization", "receipt"] }
    /// `auth.seed` is the request's time (§1.2); the tranKey computed from it is masked in a recording.
    package var replayNoise: [String] { Self.commonReplayNoise + ["auth.seed"] }

    /// Session and transaction states → canonical outcomes (providers.md §1.11, §6).
    package var outcomeMapping: OutcomeMapping { Self.mapping }

    /// Auth codes and error envelopes (providers.md §1.3).
    package var errorCatalog: ErrorCatalog { Self.catalog }

    /// Values that are secret wherever they appear: the site's secret key and the derived tranKey (§1.2).
    package var secretFieldNames: [String] { ["secretKey", "tranKey"] }

    /// The HTTP operations (providers.md §1.4–§1.8).
    package var operations: [ProviderOperation] { PlacetoPayOperation.allCases.compactMap { $0.declaration(userAgent: userAgent) } }

    /// The payer's and the mock's actions, served by the PlacetoPay mock under the same names.
    package var controlActions: [ControlAction] { PlacetoPayControlAction.all }

    /// The local notification helpers (§1.9) and the browser returns (§1.11).
    package var localActions: [ProviderAction.Kind: [ActionSpec]] {
        [
            .call: [
                ActionSpec(PlacetoPayOperation.verifyNotification.rawValue, parameters: ["notification", "secretKey", "algorithm"]),
                ActionSpec(PlacetoPayOperation.signNotification.rawValue, parameters: ["requestId", "status", "date", "secretKey", "algorithm"]),
            ],
            .redirect: ["return", "cancel"].map { ActionSpec($0, parameters: ["url", "requestId"]) },
        ]
    }

    /// Adds the `auth` object to the body, as the step's `auth:` overrides say (§1.2).
    package func authorize(_ request: inout OutgoingRequest, context: ProviderContext) throws {
        let overrides = try PlacetoPayAuthOverrides(parsing: request.auth)
        guard let login = context.credentials["login"], let secretKey = context.credentials["secretKey"] else {
            throw ProviderError.couldNotRun(
                "PlacetoPay needs the credentials 'login' and 'secretKey' "
                    + "(PAYCHECK_PLACETOPAY_LOGIN, PAYCHECK_PLACETOPAY_SECRET_KEY for the sandbox)")
        }
        if let auth = overrides.authValue(login: login, secretKey: secretKey, now: context.now(), randomBytes: context.randomBytes(16)) {
            request.body?["auth"] = auth
            if let tranKey = PlacetoPayJSON.string(auth, "tranKey") { request.secrets.append(tranKey) }
        }
        if let other = overrides.secretKey { request.secrets.append(other) }
    }

    /// Maps the answer by the operation's shape (``PlacetoPayResponseReader``).
    package func read(_ response: HTTPResponseData, of operation: ProviderOperation) throws -> Observation {
        guard let known = PlacetoPayOperation(rawValue: operation.name) else { return try readPlain(response) }
        return try PlacetoPayResponseReader(provider: self).observation(of: response, for: known)
    }

    /// A `payer:` answer carries the outcome of what the payer did; `mock:` answers are never mapped.
    package func readControl(_ observation: Observation, action: ControlAction) throws -> Observation {
        guard action.kind == .payer else { return observation }
        return try PlacetoPayResponseReader(provider: self).payerObservation(observation, action: action.name)
    }

    /// The notification helpers and the browser returns.
    package func performLocal(_ kind: ProviderAction.Kind, _ name: String, parameters: Value, context: ProviderContext) throws -> Observation {
        switch (kind, name) {
        case (.call, PlacetoPayOperation.verifyNotification.rawValue):
            return try PlacetoPayNotificationCheck.verify(parameters, context: context)
        case (.call, PlacetoPayOperation.signNotification.rawValue):
            return try PlacetoPayNotificationCheck.sign(parameters, context: context)
        case (.redirect, "return"), (.redirect, "cancel"):
            return try Self.redirect(name, parameters: parameters)
        default:
            throw ProviderError.invalidStep("PlacetoPay has no local \(kind.rawValue) action '\(name)'")
        }
    }

    /// The plain reading of the protocol's default, for an operation this adapter does not shape-map.
    private func readPlain(_ response: HTTPResponseData) throws -> Observation {
        return response.plainObservation
    }

    /// `redirect: return|cancel`: the URL the browser comes back to; always `pending`, because the return carries
    /// no trustworthy status and the merchant must query the session (providers.md §1.11).
    static func redirect(_ name: String, parameters: Value) throws -> Observation {
        guard let url = PlacetoPayJSON.string(parameters, "url") else {
            throw ProviderError.invalidStep("'redirect: \(name)' needs 'with: { url }' (the returnUrl or cancelUrl of the session)")
        }
        var body: [String: Value] = ["url": .string(url), "via": .string(name == "return" ? "returnUrl" : "cancelUrl")]
        if let requestId = PlacetoPayJSON.member(parameters, "requestId") { body["requestId"] = requestId }
        let value = Value.object(body)
        return Observation(status: nil, body: value, rawBody: JSONText.encode(value), outcome: .pending)
    }
}
