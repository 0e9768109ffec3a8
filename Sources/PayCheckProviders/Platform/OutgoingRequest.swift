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
    package var localAnswer: Observation?

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
