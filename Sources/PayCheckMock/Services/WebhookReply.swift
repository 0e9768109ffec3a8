/// A receiver's answer to one webhook attempt.
public struct WebhookReply: Sendable, Equatable {
    /// The HTTP status code; 2xx means delivered.
    public var status: Int
    /// The response body (the dispatcher keeps at most ``WebhookDispatcher/responseBodyLimit`` bytes of it).
    public var body: [UInt8]

    /// Creates an answer.
    public init(status: Int, body: [UInt8] = []) {
        self.status = status
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool {
        (200..<300).contains(self.status)
    }
}
