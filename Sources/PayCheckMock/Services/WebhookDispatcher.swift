import Foundation
import Synchronization

/// Delivers provider webhooks with retries on the mock clock, and logs every attempt.
///
/// ``deliver(_:onAttempt:)`` sends the first attempt at once and returns its record, so a route that finalizes a
/// payment answers only after the merchant was notified (deterministic for suites). When that attempt fails (no
/// answer, or a status other than 2xx), the next one is scheduled on the ``MockScheduler`` at the mock-clock time
/// the webhook's ``WebhookRetrySchedule`` gives, in the webhook's clock scope: it is sent when the clock is moved
/// past it (`POST /__paycheck/clock`) or when real time reaches it. Nothing sleeps.
///
/// The log is read with ``attempts(provider:scope:)`` (`GET /__paycheck/webhooks`) and cleared, together with every
/// pending retry, by ``reset()`` (`POST /__paycheck/reset`).
public final class WebhookDispatcher: Sendable {
    /// How many bytes of a receiver's response body the log keeps.
    public static let responseBodyLimit = 2048

    /// One webhook being delivered.
    private struct Delivery: Sendable {
        /// The delivery id, e.g. `wh-3`.
        let id: String
        /// What is sent.
        let webhook: Webhook
        /// When the first attempt was sent (mock clock of the webhook's scope).
        let firstSentAt: Date
        /// The reset generation it belongs to; attempts of an older generation are dropped.
        let generation: Int
        /// Called with every attempt's record.
        let onAttempt: (@Sendable (WebhookAttempt) -> Void)?
    }

    /// What the lock guards.
    private struct State: Sendable {
        /// Every attempt, oldest first.
        var log: [WebhookAttempt] = []
        /// The number of the next delivery.
        var nextDelivery = 1
        /// Incremented by ``reset()``.
        var generation = 0
    }

    /// The most attempts the log keeps; older ones are dropped first, so a long benchmark cannot grow it forever.
    public let maximumLogEntries: Int
    /// Sends the attempts.
    private let transport: any WebhookTransport
    /// Runs the retries.
    private let scheduler: MockScheduler
    /// The clocks of the scopes.
    private let scopes: MockClockScopes
    /// The log and counters.
    private let state = Mutex(State())

    /// Creates a dispatcher sending through `transport` and retrying on `scheduler`, keeping at most
    /// `maximumLogEntries` attempts in its log.
    public init(
        transport: any WebhookTransport,
        scheduler: MockScheduler,
        scopes: MockClockScopes,
        maximumLogEntries: Int = 10_000
    ) {
        self.maximumLogEntries = max(1, maximumLogEntries)
        self.transport = transport
        self.scheduler = scheduler
        self.scopes = scopes
    }

    /// Sends the first attempt of `webhook` now and schedules retries after a failure.
    /// - Parameters:
    ///   - webhook: The signed request, its retry schedule and clock scope.
    ///   - onAttempt: Called with the record of every attempt (this one and the retries), for a provider's own log.
    /// - Returns: The first attempt's record.
    @discardableResult
    public func deliver(
        _ webhook: Webhook,
        onAttempt: (@Sendable (WebhookAttempt) -> Void)? = nil
    ) async -> WebhookAttempt {
        let now = self.scopes.clock(for: webhook.scope).now()
        let (number, generation) = self.state.withLock { state in
            defer { state.nextDelivery += 1 }
            return (state.nextDelivery, state.generation)
        }
        let delivery = Delivery(
            id: "wh-\(number)", webhook: webhook, firstSentAt: now, generation: generation, onAttempt: onAttempt)
        return await self.attempt(1, of: delivery, scheduledAt: now)
    }

    /// Every attempt so far, oldest first, optionally only those of `provider` and of `scope`.
    public func attempts(provider: String? = nil, scope: ClockScope? = nil) -> [WebhookAttempt] {
        self.state.withLock { state in
            state.log.filter { attempt in
                (provider == nil || attempt.provider == provider) && (scope == nil || attempt.scope == scope)
            }
        }
    }

    /// Clears the log and forgets pending retries (their jobs are dropped by the host's scheduler reset; a retry
    /// that is running finishes but is neither logged nor retried).
    public func reset() {
        self.state.withLock { state in
            state = State(log: [], nextDelivery: 1, generation: state.generation + 1)
        }
    }

    /// Sends attempt `number` of `delivery`, logs it and schedules the next one after a failure.
    private func attempt(_ number: Int, of delivery: Delivery, scheduledAt: Date) async -> WebhookAttempt {
        let webhook = delivery.webhook
        let sentAt = self.scopes.clock(for: webhook.scope).now()
        var status: Int?
        var failure: String?
        var body: [UInt8] = []
        do {
            let request = webhook.request(forAttempt: number)
            let reply = try await self.transport.send(url: webhook.url, headers: request.headers, body: request.body)
            status = reply.status
            body = reply.body
        } catch {
            failure = "\(error)"
        }
        let delivered = status.map(webhook.acknowledges) ?? false
        let nextAt: Date? =
            delivered
            ? nil
            : webhook.schedule.offset(ofAttempt: number + 1).map {
                delivery.firstSentAt.addingTimeInterval($0.timeInterval)
            }
        let record = WebhookAttempt(
            deliveryID: delivery.id, provider: webhook.provider, url: webhook.url, scope: webhook.scope,
            attempt: number, maximumAttempts: webhook.schedule.maximumAttempts, scheduledAt: scheduledAt,
            sentAt: sentAt, status: status, error: failure,
            responseBody: String(decoding: body.prefix(Self.responseBodyLimit), as: UTF8.self),
            responseBodyTruncated: body.count > Self.responseBodyLimit, nextAttemptAt: nextAt, delivered: delivered)
        let current = self.state.withLock { state in
            guard state.generation == delivery.generation else { return false }
            state.log.append(record)
            if state.log.count > self.maximumLogEntries {
                state.log.removeFirst(state.log.count - self.maximumLogEntries)
            }
            return true
        }
        guard current else { return record }
        delivery.onAttempt?(record)
        if let nextAt {
            self.scheduler.schedule(
                at: nextAt, scope: webhook.scope, label: "webhook \(delivery.id) attempt \(number + 1)"
            ) { [self] in
                _ = await self.attempt(number + 1, of: delivery, scheduledAt: nextAt)
            }
        }
        return record
    }
}
