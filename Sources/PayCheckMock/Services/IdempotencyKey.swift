package import PayCheckCore
/// What the ``IdempotencyStore`` keys a request by: the provider, the clock scope and the client's key.
package struct IdempotencyKey: Hashable, Sendable, CustomStringConvertible {
    /// The provider id, so that two providers never share keys.
    package var provider: String
    /// The clock scope, so that two runs sharing a mock never share keys.
    package var scope: ClockScope
    /// The client's idempotency key, e.g. the `X-Idempotency-Key` header value.
    package var key: String

    /// Creates a key; `scope` defaults to the scope of the current request.
    package init(provider: String, scope: ClockScope = ClockScope.current, key: String) {
        self.provider = provider
        self.scope = scope
        self.key = key
    }

    /// `provider/scope/key`.
    package var description: String {
        "\(self.provider)/\(self.scope.id)/\(self.key)"
    }
}
