/// Sends one webhook attempt for the ``WebhookDispatcher``.
///
/// The host's default is ``OutboundWebhookTransport`` over its ``OutboundHTTP``; tests inject a fake receiver.
package protocol WebhookTransport: Sendable {
    /// POSTs `body` with `headers` to `url` and returns the receiver's answer.
    /// - Throws: When no HTTP answer arrived (connection refused, timeout, …); the attempt counts as failed.
    func send(url: String, headers: [(name: String, value: String)], body: [UInt8]) async throws -> WebhookReply
}
