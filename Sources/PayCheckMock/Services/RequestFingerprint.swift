/// What makes two requests "the same request" for the ``IdempotencyStore``: by default the method, the path and
/// the exact body bytes. A provider that treats reordered JSON members as the same request builds the fingerprint
/// from a canonical form instead (``init(_:)``).
package struct RequestFingerprint: Hashable, Sendable {
    /// The compared bytes.
    private let bytes: [UInt8]

    /// The fingerprint of `method path` with `body`.
    package init(method: String, path: String, body: [UInt8]) {
        self.bytes = Array("\(method) \(path)\n".utf8) + body
    }

    /// A fingerprint of any text the provider chooses, e.g. a canonical JSON rendering of the body.
    package init(_ text: String) {
        self.bytes = Array(text.utf8)
    }
}
