/// A receiver's answer to one webhook attempt.
package struct WebhookReply: Sendable, Equatable {
    /// The HTTP status code; 2xx means delivered.
    package var status: Int
    /// The response body (the dispatcher keeps at most ``WebhookDispatcher/responseBodyLimit`` bytes of it).
    package var body: [UInt8]

    /// Creates an answer.
    package init(status: Int, body: [UInt8] = []) {
        self.status = status
        self.body = body
    }

    /// Whether the status is 2xx.
    var isSuccess: Bool {
        (200..<300).contains(self.status)
    }
}
