import Foundation
import PayCheckCore

/// The `payer:` and provider `mock:` actions, sent to the PayCheck mock's control API under
/// `/__paycheck/placetopay/`. They need a mock target (`requires: [mock]`).
///
/// | Step | Request |
/// |---|---|
/// | `payer: pay` `{requestId, card, expiry?, cvv?, otp?, amount?}` | `POST payer/pay` |
/// | `payer: cancel` `{requestId}` | `POST payer/cancel` (the payer's "I don't want to continue": `REJECTED/?C`) |
/// | `payer: abandon` `{requestId}` | `POST payer/abandon` (closes the page; the session stays pending) |
/// | `mock: site` `{login, secretKey, status, notificationUrl, acceptsSHA1, notificationAlgorithm}` | `PUT sites/{login}` |
/// | `mock: notifications` `{requestId}` | `GET notifications?requestId=…` |
/// | `mock: notify` `{requestId, url?}` | `POST notify` (re-sends the final-state notification) |
///
/// Answers are returned as they are (status, headers, body). A successful `payer:` answer also carries the
/// outcome of what the payer did: the attempt's `transaction.status` (a Transaction object of §1.5), or the
/// `session` status when no transaction was made. `mock:` answers are never mapped.
public struct PlacetoPayControlAction: Sendable, Hashable {
    /// The step kind, `payer` or `mock`.
    public var kind: ProviderAction.Kind
    /// The action name.
    public var name: String

    /// The `payer:` action names.
    public static let payerActions = ["pay", "cancel", "abandon"]
    /// The provider `mock:` action names.
    public static let mockActions = ["site", "notifications", "notify"]

    /// The action of a step, or `nil` when PlacetoPay has none by that name.
    public init?(kind: ProviderAction.Kind, name: String) {
        switch kind {
        case .payer: guard Self.payerActions.contains(name) else { return nil }
        case .mock: guard Self.mockActions.contains(name) else { return nil }
        default: return nil
        }
        self.kind = kind
        self.name = name
    }

    /// The control API prefix below the mock host's URL.
    static let prefix = "/__paycheck/placetopay"

    /// Sends the action to the mock's control API.
    func perform(_ parameters: Value, context: ProviderContext) async throws -> Observation {
        guard let control = context.controlURL else {
            throw ProviderError("'\(kind.rawValue): \(name)' drives the PayCheck mock; this target has no control API (mark the case 'requires: [mock]')")
        }
        let request = try request(parameters, controlURL: control, addSecret: context.addSecret)
        let response = try await context.send(request)
        let text = response.text
        let observation = Observation(
            status: response.status, headers: response.headers, body: Observation.parseBody(text), rawBody: text)
        guard kind == .payer else { return observation }
        return try PlacetoPayResponseReader(mapping: PlacetoPayProvider.mapping, catalog: PlacetoPayProvider.catalog)
            .payerObservation(observation, action: name)
    }

    /// The HTTP request for this action.
    func request(_ parameters: Value, controlURL: String, addSecret: (String) -> Void) throws -> HTTPRequestData {
        var members: [String: Value]
        switch parameters {
        case .null: members = [:]
        case .object(let m): members = m
        default: throw ProviderError("'with' of '\(kind.rawValue): \(name)' must be a mapping, got \(parameters.brief)")
        }
        let base = PlacetoPayRequestBuilder.join(controlURL, Self.prefix)
        let json = [(name: "Content-Type", value: "application/json")]
        switch (kind, name) {
        case (.payer, _):
            try require(members, "requestId")
            return HTTPRequestData(method: "POST", url: base + "/payer/\(name)", headers: json, body: PlacetoPayJSON.bytes(.object(members)))
        case (_, "site"):
            guard let login = PlacetoPayJSON.scalarText(members.removeValue(forKey: "login")), !login.isEmpty else {
                throw ProviderError("'mock: site' needs 'with: { login }' (a unique login, e.g. \"site-{{ random(8) }}\")")
            }
            if let secret = PlacetoPayJSON.string(.object(members), "secretKey") { addSecret(secret) }
            return HTTPRequestData(
                method: "PUT", url: base + "/sites/" + PlacetoPayRequestBuilder.escapePathSegment(login), headers: json,
                body: PlacetoPayJSON.bytes(.object(members)))
        case (_, "notifications"):
            let query = PlacetoPayJSON.scalarText(members["requestId"]).map { "?requestId=" + PlacetoPayRequestBuilder.escapePathSegment($0) } ?? ""
            return HTTPRequestData(method: "GET", url: base + "/notifications" + query)
        default:
            try require(members, "requestId")
            return HTTPRequestData(method: "POST", url: base + "/notify", headers: json, body: PlacetoPayJSON.bytes(.object(members)))
        }
    }

    /// Fails when a required parameter is missing.
    private func require(_ members: [String: Value], _ key: String) throws {
        guard let value = members[key], value != .null else {
            throw ProviderError("'\(kind.rawValue): \(name)' needs 'with: { \(key) }'")
        }
    }
}
