import Foundation
package import PayCheckCore

/// A provider request on its way out: built from an operation's declaration and a step's `with:`, not yet
/// encoded, so a signer can add body members (PlacetoPay's `auth`) or headers (a bearer key, an HMAC).
package struct OutgoingRequest: Sendable {
    /// The operation.
    package var operation: ProviderOperation
    /// The HTTP method.
    package var method: String
    /// The absolute URL, query included.
    package var url: String
    /// Headers in order.
    package var headers: [(name: String, value: String)]
    /// The body members, or `nil` for an operation without a body.
    package var body: [String: Value]?
    /// The step's rendered `auth:` overrides, if any.
    package var auth: Value?
    /// Derived values the signer produced that must be redacted (a tranKey, a signature).
    package var secrets: [String] = []
    /// The answer of a signer that refuses the request before it is sent, the way a provider's client SDK validates
    /// its input (MIT's Suite mCommerce codes, providers.md §5.11 B1); the executor returns it and sends nothing.
    var localAnswer: Observation?

    /// Creates a request.
    package init(
        operation: ProviderOperation, method: String, url: String, headers: [(name: String, value: String)],
        body: [String: Value]?, auth: Value?
    ) {
        self.operation = operation
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.auth = auth
    }

    /// Sets a header, replacing one of the same name.
    package mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name, value))
    }

    /// The first header with this name, case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A provider request as it goes on the wire, for a signature that covers it: the method, the path and query as
/// sent, the headers and the final body bytes (place → encode → sign). khipu 2.0's HMAC is computed over it, so the
/// signed parameters are the ones the body's bytes carry.
package struct SignableRequest: Sendable {
    /// The operation.
    package var operation: ProviderOperation
    /// The HTTP method.
    package var method: String
    /// The provider base URL the request was built on (the step's context).
    package var baseURL: String
    /// The absolute URL as sent, query included.
    package var url: String
    /// Headers in order.
    package var headers: [(name: String, value: String)]
    /// The body exactly as sent (empty without one).
    package var body: [UInt8]
    /// The step's rendered `auth:` overrides, if any.
    package var auth: Value?
    /// Derived values the signer produced that must be redacted (a signature, an overriding secret).
    package var secrets: [String] = []

    /// The URL without its query.
    var urlWithoutQuery: String { url.firstIndex(of: "?").map { String(url[..<$0]) } ?? url }

    /// The query as sent (percent-encoded, without `?`); empty without one.
    var rawQuery: String { url.firstIndex(of: "?").map { String(url[url.index(after: $0)...]) } ?? "" }

    /// The query's pairs, decoded.
    package var queryItems: [(name: String, value: String)] { rawQuery.isEmpty ? [] : FormText.decodePairs(rawQuery) }

    /// The path as sent after the base URL (`/payments/7`), or the URL's whole path when a step moved it elsewhere.
    package var path: String {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let plain = urlWithoutQuery
        if plain.hasPrefix(base) { return String(plain.dropFirst(base.count)) }
        return URLComponents(string: plain)?.percentEncodedPath ?? plain
    }

    /// Sets a header, replacing one of the same name.
    package mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name, value))
    }
}
