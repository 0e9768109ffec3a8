import Foundation
import PayCheckCore

/// The PlacetoPay Checkout (WebCheckout) adapter: builds and signs requests, reads answers, maps states
/// (providers.md §1).
///
/// - `call:` operations (``PlacetoPayOperation``) sign every request with a fresh `auth` object
///   (`PlacetoPayAuth`, §1.2) from the context's clock and random bytes; `auth:` overrides on the step make
///   deliberate mis-signings (``PlacetoPayAuthOverrides``). `verifyNotification` and `signNotification` run
///   locally (§1.9).
/// - `payer:` and `mock:` actions drive the PayCheck mock through `/__paycheck/placetopay/…`
///   (``PlacetoPayControlAction``).
/// - `redirect: return|cancel` builds the browser return, which carries no trustworthy status (§1.11).
///
/// Observations carry `outcome` and `nativeState` for session- and transaction-shaped bodies and `error`
/// for every `FAILED` envelope, so the report's coverage matrix fills from real responses.
public struct PlacetoPayProvider: Provider {
    /// `placetopay`.
    public let id = "placetopay"
    /// The default `userAgent` field of created sessions when a step gives none.
    public var userAgent: String

    /// Creates the adapter; `userAgent` is sent in `createSession`/`collect` bodies that do not set one.
    public init(userAgent: String = "PayCheck") {
        self.userAgent = userAgent
    }

    /// The action names per step kind, for lint.
    public var description: ProviderDescription {
        ProviderDescription(id: id, actions: [
            .call: PlacetoPayOperation.allCases.map(\.rawValue),
            .payer: PlacetoPayControlAction.payerActions,
            .mock: PlacetoPayControlAction.mockActions,
            .redirect: ["return", "cancel"],
        ])
    }

    /// `login` (public) and `secretKey` (secret), per site and environment (providers.md §6.1).
    public var credentialFields: [CredentialField] {
        [
            CredentialField(name: "login", secret: false, environmentVariable: "PAYCHECK_PLACETOPAY_LOGIN"),
            CredentialField(name: "secretKey", secret: true, environmentVariable: "PAYCHECK_PLACETOPAY_SECRET_KEY"),
        ]
    }

    /// The site the PayCheck mock knows out of the box.
    public var mockCredentials: [String: String] {
        ["login": "paycheck-test", "secretKey": "paycheck-test-secret-key"]
    }

    /// The documented global test environment (providers.md §1.1).
    public var sandboxBaseURL: String { "https://checkout-test.placetopay.com" }

    /// Session and transaction states → canonical outcomes (providers.md §1.11, §6).
    public var outcomeMapping: OutcomeMapping { Self.mapping }

    /// Auth codes and error envelopes (providers.md §1.3).
    public var errorCatalog: ErrorCatalog { Self.catalog }

    /// Runs one step.
    public func perform(_ action: ProviderActionRequest, context: ProviderContext) async throws -> Observation {
        switch action.kind {
        case .call:
            guard let operation = PlacetoPayOperation(rawValue: action.name) else {
                throw unknown(action)
            }
            if action.auth != nil, operation.isLocal {
                throw ProviderError("'auth' overrides apply to requests sent to PlacetoPay; '\(operation.rawValue)' runs locally")
            }
            switch operation {
            case .verifyNotification:
                return try PlacetoPayNotificationCheck.verify(action.parameters, context: context)
            case .signNotification:
                return try PlacetoPayNotificationCheck.sign(action.parameters, context: context)
            default:
                return try await call(operation, action: action, context: context)
            }
        case .payer, .mock:
            guard let control = PlacetoPayControlAction(kind: action.kind, name: action.name) else {
                throw unknown(action)
            }
            return try await control.perform(action.parameters, context: context)
        case .redirect:
            guard action.name == "return" || action.name == "cancel" else { throw unknown(action) }
            return try Self.redirect(action.name, parameters: action.parameters)
        case .deeplink:
            throw unknown(action)
        }
    }

    /// Builds, signs and sends an API request, then reads the answer.
    private func call(
        _ operation: PlacetoPayOperation, action: ProviderActionRequest, context: ProviderContext
    ) async throws -> Observation {
        let overrides = try PlacetoPayAuthOverrides(parsing: action.auth)
        guard let login = context.credentials["login"], let secretKey = context.credentials["secretKey"] else {
            throw ProviderError(
                "PlacetoPay needs the credentials 'login' and 'secretKey' "
                    + "(PAYCHECK_PLACETOPAY_LOGIN, PAYCHECK_PLACETOPAY_SECRET_KEY for the sandbox)")
        }
        let builder = PlacetoPayRequestBuilder(
            baseURL: context.baseURL, login: login, secretKey: secretKey, now: context.now(),
            randomBytes: context.randomBytes(16), userAgent: userAgent)
        let built = try builder.request(operation, parameters: action.parameters, overrides: overrides)
        for secret in built.secrets { context.addSecret(secret) }
        let response = try await context.send(built.request)
        return try PlacetoPayResponseReader(mapping: Self.mapping, catalog: Self.catalog)
            .observation(of: response, for: operation)
    }

    /// `redirect: return|cancel`: the URL the browser comes back to; always `pending`, because the return carries
    /// no trustworthy status and the merchant must query the session (providers.md §1.11).
    static func redirect(_ name: String, parameters: Value) throws -> Observation {
        guard let url = PlacetoPayJSON.string(parameters, "url") else {
            throw ProviderError("'redirect: \(name)' needs 'with: { url }' (the returnUrl or cancelUrl of the session)")
        }
        var body: [String: Value] = ["url": .string(url), "via": .string(name == "return" ? "returnUrl" : "cancelUrl")]
        if let requestId = PlacetoPayJSON.member(parameters, "requestId") { body["requestId"] = requestId }
        let value = Value.object(body)
        return Observation(status: 0, body: value, rawBody: JSONText.encode(value), outcome: Outcome.pending.rawValue)
    }

    /// The error for an action name lint would have refused.
    private func unknown(_ action: ProviderActionRequest) -> ProviderError {
        let known = description.actions[action.kind] ?? []
        return ProviderError(
            "unknown PlacetoPay \(action.kind.rawValue) action '\(action.name)'"
                + (known.isEmpty ? "" : " (known: \(known.joined(separator: ", ")))"))
    }
}
