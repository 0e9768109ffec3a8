package import PayCheckCore
/// A webhook a provider mock asks the ``WebhookDispatcher`` to deliver: the request is final (signed by the
/// provider), the dispatcher only sends it and retries it.
package struct Webhook: Sendable {
    /// The provider id, e.g. `placetopay`; filters `GET /__paycheck/webhooks?provider=…`.
    package var provider: String
    /// The merchant's URL.
    package var url: String
    /// The request headers, in order (content type and any signature header).
    package var headers: [(name: String, value: String)]
    /// The exact body bytes.
    package var body: [UInt8]
    /// When to retry after a failure.
    package var schedule: WebhookRetrySchedule
    /// The clock scope the retries are timed on.
    package var scope: ClockScope
    /// Renders attempt `n` (from 1) when the payload changes per attempt, e.g. a retry counter inside a signed body
    /// (Yuno, providers.md §3.13 P1-14); `nil` sends ``headers`` and ``body`` on every attempt.
    package var render: (@Sendable (_ attempt: Int) -> (headers: [(name: String, value: String)], body: [UInt8]))?
    /// Which receiver statuses acknowledge the webhook; by default any 2xx. A provider that documents a narrower rule
    /// sets it (Yuno: only 200, providers.md §3.8), so a receiver answering 204 is retried as the provider would.
    package var acknowledges: @Sendable (_ status: Int) -> Bool = { (200..<300).contains($0) }

    /// Creates a webhook.
    /// - Parameters:
    ///   - provider: The provider id.
    ///   - url: The merchant's URL.
    ///   - headers: The request headers, in order.
    ///   - body: The exact body bytes.
    ///   - schedule: When to retry after a failure; defaults to a single attempt.
    ///   - scope: The clock scope of the retries; defaults to the scope of the current request or job.
    package init(
        provider: String,
        url: String,
        headers: [(name: String, value: String)],
        body: [UInt8],
        schedule: WebhookRetrySchedule = .once,
        scope: ClockScope = ClockScope.current
    ) {
        self.provider = provider
        self.url = url
        self.headers = headers
        self.body = body
        self.schedule = schedule
        self.scope = scope
    }

    /// The headers and body of attempt `number`.
    package func request(forAttempt number: Int) -> (headers: [(name: String, value: String)], body: [UInt8]) {
        render?(number) ?? (headers, body)
    }
}
