/// The bounds of what a mock host keeps and accepts, so a mock left running for hours under load stays small
/// (`paycheck mock --help` lists the flags; README "Running the mock safely" the defaults).
///
/// Stores evict their oldest entries past a bound, and count what they evicted (`GET /__paycheck/limits`).
package struct MockLimits: Sendable, Equatable {
    /// Requests the journal keeps.
    package var journalEntries = 10_000
    /// Bytes (bodies, headers and paths) the journal keeps.
    package var journalBytes = 32 * 1024 * 1024
    /// Values the key-value store keeps.
    package var keyValueEntries = 10_000
    /// Bytes of JSON the key-value store keeps.
    package var keyValueBytes = 32 * 1024 * 1024
    /// Resources (sessions, payments) each provider mock keeps; the oldest are evicted past it.
    package var providerResources = 10_000
    /// Webhook attempts the webhook log keeps.
    package var webhookLogEntries = 10_000
    /// The largest request body accepted; a larger one is answered 413 in the provider's own error shape.
    package var requestBodyBytes = 2 * 1024 * 1024
    /// Seconds a connection may stay without reads or writes (slow headers, idle keep-alive) before it is closed.
    package var idleTimeoutSeconds = 30
    /// Seconds a request body may take to arrive; a slower one is answered 408.
    package var bodyReadTimeoutSeconds = 10
    /// Seconds a graceful shutdown (SIGINT/SIGTERM) waits for requests in flight before it closes them.
    package var shutdownGraceSeconds = 3

    /// The defaults.
    package init() {}

    /// The limits as the control API shows them.
    var json: [String: Int] {
        [
            "journalEntries": self.journalEntries, "journalBytes": self.journalBytes,
            "keyValueEntries": self.keyValueEntries, "keyValueBytes": self.keyValueBytes,
            "webhookLogEntries": self.webhookLogEntries, "providerResources": self.providerResources, "requestBodyBytes": self.requestBodyBytes,
            "idleTimeoutSeconds": self.idleTimeoutSeconds, "bodyReadTimeoutSeconds": self.bodyReadTimeoutSeconds,
            "shutdownGraceSeconds": self.shutdownGraceSeconds,
        ]
    }
}
