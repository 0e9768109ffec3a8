/// The default ``WebhookTransport``: the host's ``OutboundHTTP`` sender.
package struct OutboundWebhookTransport: WebhookTransport {
    /// The sender.
    package let outbound: any OutboundHTTP

    /// Creates a transport over `outbound`.
    package init(outbound: any OutboundHTTP) {
        self.outbound = outbound
    }

    /// POSTs through ``OutboundHTTP/postForReply(url:headers:body:)``.
    package func send(url: String, headers: [(name: String, value: String)], body: [UInt8]) async throws
        -> WebhookReply
    {
        let reply = try await self.outbound.postForReply(
            url: url, headers: headers.map { ($0.name, $0.value) }, body: body)
        return WebhookReply(status: reply.status, body: reply.body)
    }
}
