import Foundation

/// One request received by the mock host, as kept in the ``RequestJournal``.
public struct RecordedRequest: Sendable, Hashable {
    /// One header line, in the order and spelling it was received.
    public struct Header: Sendable, Hashable {
        /// The header name as received.
        public var name: String
        /// The header value.
        public var value: String

        /// Creates a header line.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The largest body, in bytes, that is kept; longer bodies are truncated.
    public static let maximumBodyBytes = 64 * 1024

    /// The HTTP method, e.g. `POST`.
    public var method: String
    /// The request path without the query, e.g. `/placetopay/api/session`.
    public var path: String
    /// The raw query string without the leading `?`; empty when there was none.
    public var query: String
    /// Every header line in received order.
    public var headers: [Header]
    /// The body decoded as UTF-8 (invalid sequences repaired), truncated to ``maximumBodyBytes``.
    public var body: String
    /// Whether `body` was cut short.
    public var bodyTruncated: Bool
    /// The mock-clock time at which the request arrived.
    public var receivedAt: Date

    /// Creates a record; `body` is truncated to ``maximumBodyBytes`` bytes.
    public init(
        method: String,
        path: String,
        query: String,
        headers: [Header],
        body: [UInt8],
        receivedAt: Date
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        let truncated = body.count > Self.maximumBodyBytes
        self.body = String(decoding: truncated ? Array(body.prefix(Self.maximumBodyBytes)) : body, as: UTF8.self)
        self.bodyTruncated = truncated
        self.receivedAt = receivedAt
    }

    /// The value of the first header named `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return self.headers.first { $0.name.lowercased() == lowered }?.value
    }
}
