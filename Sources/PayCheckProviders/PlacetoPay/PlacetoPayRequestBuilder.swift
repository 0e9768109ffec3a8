import Foundation
import PayCheckCore

/// Turns a `call:` step into a signed PlacetoPay request; a pure function of its stored inputs.
///
/// Every endpoint is `POST` with a JSON body carrying `auth` (providers.md §1.1, §1.2). The step's `with:`
/// mapping is the body, with the fields named as PlacetoPay names them (`payment`, `returnUrl`, `locale`,
/// `expiration`, `buyer`, `metadata`, `instrument`…); `requestId` goes into the path of the session routes.
/// `createSession` and `collect` get `ipAddress` and `userAgent` defaults (both required, §1.4); a member whose
/// value is `null` is left out, so `ipAddress: ~` sends a body without it.
struct PlacetoPayRequestBuilder: Sendable {
    /// The API base URL, e.g. `https://checkout-test.placetopay.com` or `{mock}/placetopay`.
    var baseURL: String
    /// The site login.
    var login: String
    /// The site secret key.
    var secretKey: String
    /// The time the seed is taken from.
    var now: Date
    /// Sixteen random bytes for the nonce.
    var randomBytes: [UInt8]
    /// The default `userAgent`.
    var userAgent: String

    /// The default `ipAddress` when a step gives none.
    static let defaultIPAddress = "127.0.0.1"

    /// A built request and the derived values to redact.
    struct Built: Sendable {
        /// The request.
        var request: HTTPRequestData
        /// The tranKey and any overriding secret key.
        var secrets: [String]
    }

    /// Builds the request of `operation` from the step's parameters and auth overrides.
    /// - Throws: `ProviderError` when `with:` is not a mapping or a session route lacks `requestId`.
    func request(_ operation: PlacetoPayOperation, parameters: Value, overrides: PlacetoPayAuthOverrides) throws -> Built {
        var body: [String: Value]
        switch parameters {
        case .null: body = [:]
        case .object(let members): body = members
        default: throw ProviderError("'with' of '\(operation.rawValue)' must be a mapping, got \(parameters.brief)")
        }
        var requestId: String?
        if operation.requestIdInPath {
            guard let id = PlacetoPayJSON.scalarText(body.removeValue(forKey: "requestId")), !id.isEmpty else {
                throw ProviderError("'\(operation.rawValue)' needs 'with: { requestId }' (the id createSession returned)")
            }
            requestId = id
        }
        if operation.takesClientDefaults {
            if body["ipAddress"] == nil { body["ipAddress"] = .string(Self.defaultIPAddress) }
            if body["userAgent"] == nil { body["userAgent"] = .string(userAgent) }
        }
        body = body.filter { $0.value != .null }
        if body["auth"] != nil {
            throw ProviderError("'with' must not set 'auth'; the adapter signs every request (use 'auth:' overrides on the step)")
        }
        var secrets: [String] = []
        if let auth = overrides.authValue(login: login, secretKey: secretKey, now: now, randomBytes: randomBytes) {
            body["auth"] = auth
            if let tranKey = PlacetoPayJSON.string(auth, "tranKey") { secrets.append(tranKey) }
        }
        if let other = overrides.secretKey { secrets.append(other) }
        let url = Self.join(baseURL, operation.path(requestId: requestId.map(Self.escapePathSegment)))
        let request = HTTPRequestData(
            method: "POST", url: url,
            headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
            body: PlacetoPayJSON.bytes(.object(body)))
        return Built(request: request, secrets: secrets)
    }

    /// `base` + `path` without a doubled slash.
    static func join(_ base: String, _ path: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    /// Percent-encodes a path segment (a `requestId` given as text could hold anything).
    static func escapePathSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
