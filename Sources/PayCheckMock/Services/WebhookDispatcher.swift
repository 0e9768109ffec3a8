import Foundation
package import PayCheckCore
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
package final class WebhookDispatcher: Sendable {
    /// How many bytes of a receiver's response body the log keeps.
    package static let responseBodyLimit = 2048

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
        /// Log entries dropped past ``maximumLogEntries``.
        var evicted = 0
        /// Per provider, a delivery held back by an `outOfOrder` fault until the provider's next one was sent.
        var held: [String: Delivery] = [:]
        /// Per provider, the last webhook sent, which a `replay` fault sends again.
        var lastSent: [String: Webhook] = [:]
    }

    /// The most attempts the log keeps; older ones are dropped first, so a long benchmark cannot grow it forever.
    package let maximumLogEntries: Int
    /// Sends the attempts.
    private let transport: any WebhookTransport
    /// Runs the retries.
    private let scheduler: MockScheduler
    /// The clocks of the scopes.
    private let scopes: MockClockScopes
    /// The log and counters.
    private let state = Mutex(State())
    /// Injected webhook faults (``FaultKind/isWebhookFault``); `nil` outside a host.
    private let faults: FaultRegistry?
    /// Numbers each attempt when it is logged; the host shares its journal's numbers, so a run can put the
    /// notifications and the requests a backend sent in the order they happened.
    private let numbering: @Sendable () -> Int

    /// Creates a dispatcher sending through `transport` and retrying on `scheduler`, keeping at most
    /// `maximumLogEntries` attempts in its log.
    package convenience init(
        transport: any WebhookTransport,
        scheduler: MockScheduler,
        scopes: MockClockScopes,
        maximumLogEntries: Int = 10_000
    ) {
        self.init(transport: transport, scheduler: scheduler, scopes: scopes, maximumLogEntries: maximumLogEntries, faults: nil)
    }

    /// Creates a dispatcher that also applies the host's webhook faults.
    init(
        transport: any WebhookTransport, scheduler: MockScheduler, scopes: MockClockScopes, maximumLogEntries: Int = 10_000,
        faults: FaultRegistry?, numbering: (@Sendable () -> Int)? = nil
    ) {
        let counter = Mutex(0)
        self.numbering =
            numbering ?? {
                counter.withLock {
                    $0 += 1; return $0
                }
            }
        self.maximumLogEntries = max(1, maximumLogEntries)
        self.transport = transport
        self.scheduler = scheduler
        self.scopes = scopes
        self.faults = faults
    }

    /// Sends the first attempt of `webhook` now and schedules retries after a failure.
    /// - Parameters:
    ///   - webhook: The signed request, its retry schedule and clock scope.
    ///   - onAttempt: Called with the record of every attempt (this one and the retries), for a provider's own log.
    /// - Returns: The first attempt's record.
    @discardableResult
    package func deliver(
        _ webhook: Webhook,
        onAttempt: (@Sendable (WebhookAttempt) -> Void)? = nil
    ) async -> WebhookAttempt {
        let fault = self.faults?.consumeWebhook(provider: webhook.provider)
        let now = self.scopes.clock(for: webhook.scope).now()
        let sent = fault?.kind == .tamperedSignature ? Self.tampered(webhook) : webhook
        let delivery = self.newDelivery(sent, at: now, onAttempt: onAttempt)
        switch fault?.kind {
        case .delayedDelivery?:
            let at = now.addingTimeInterval(Double(fault?.number("delayMs") ?? 0) / 1000)
            self.scheduler.schedule(at: at, scope: webhook.scope, label: "webhook \(delivery.id) delayed by a fault") { [self] in
                _ = await self.attempt(1, of: delivery, scheduledAt: at)
            }
            return self.heldRecord(delivery, at: now, until: at, reason: "delayed by an injected fault until \(ISOTimestamp.format(at))")
        case .outOfOrder?:
            self.state.withLock { $0.held[webhook.provider] = delivery }
            return self.heldRecord(delivery, at: now, until: nil, reason: "held by an injected fault until the next notification was sent")
        default:
            break
        }
        let previous = self.state.withLock { state in
            defer { state.lastSent[webhook.provider] = webhook }
            return state.lastSent[webhook.provider]
        }
        let record = await self.attempt(1, of: delivery, scheduledAt: now, receiverTimesOut: fault?.kind == .receiverTimeout)
        if fault?.kind == .duplicate {
            _ = await self.attempt(1, of: self.newDelivery(sent, at: now, onAttempt: onAttempt), scheduledAt: now)
        }
        if fault?.kind == .replay, let previous {
            _ = await self.attempt(1, of: self.newDelivery(previous, at: now, onAttempt: nil), scheduledAt: now)
        }
        if let held = self.state.withLock({ $0.held.removeValue(forKey: webhook.provider) }) {
            _ = await self.attempt(1, of: held, scheduledAt: now)
        }
        return record
    }

    /// A new delivery of `webhook`, numbered.
    private func newDelivery(_ webhook: Webhook, at now: Date, onAttempt: (@Sendable (WebhookAttempt) -> Void)?) -> Delivery {
        let (number, generation) = self.state.withLock { state in
            defer { state.nextDelivery += 1 }
            return (state.nextDelivery, state.generation)
        }
        return Delivery(id: "wh-\(number)", webhook: webhook, firstSentAt: now, generation: generation, onAttempt: onAttempt)
    }

    /// The record returned for a delivery a fault holds back (not logged: nothing was sent yet).
    private func heldRecord(_ delivery: Delivery, at now: Date, until: Date?, reason: String) -> WebhookAttempt {
        WebhookAttempt(
            deliveryID: delivery.id, provider: delivery.webhook.provider, url: delivery.webhook.url, scope: delivery.webhook.scope,
            attempt: 0, maximumAttempts: delivery.webhook.schedule.maximumAttempts, scheduledAt: now, sentAt: now, status: nil,
            error: reason, responseBody: "", responseBodyTruncated: false, nextAttemptAt: until, delivered: false)
    }

    /// `webhook` with its signature broken after signing: a header named like `signature` altered, else a body member
    /// named `signature`, else the body itself (an unsigned notification such as Mollie's `id=tr_…`).
    static func tampered(_ webhook: Webhook) -> Webhook {
        var copy = webhook
        (copy.headers, copy.body) = Self.tampered(headers: webhook.headers, body: webhook.body)
        if let render = webhook.render {
            copy.render = { attempt in
                let request = render(attempt)
                return Self.tampered(headers: request.headers, body: request.body)
            }
        }
        return copy
    }

    /// One rendered request with its signature broken (see ``tampered(_:)``).
    private static func tampered(headers: [(name: String, value: String)], body: [UInt8])
        -> (headers: [(name: String, value: String)], body: [UInt8])
    {
        var headers = headers
        if let index = headers.firstIndex(where: { $0.name.lowercased().contains("signature") }) {
            headers[index].value = Self.flipped(headers[index].value)
            return (headers, body)
        }
        let text = String(decoding: body, as: UTF8.self)
        if case .object(var members)? = JSONText.parse(text), let signature = members["signature"]?.stringValue {
            members["signature"] = .string(Self.flipped(signature))
            return (headers, JSONText.encodeBytes(.object(members)))
        }
        return (headers, body.isEmpty ? Array("x".utf8) : Array(Self.flipped(text).utf8))
    }

    /// `text` with one letter or digit changed, the one nearest its middle (inside an encrypted value or a signature
    /// rather than at an edge a parser might ignore).
    private static func flipped(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        let middle = scalars.count / 2
        let order = scalars.indices.sorted { abs($0 - middle) < abs($1 - middle) }
        guard let index = order.first(where: { scalars[$0].properties.isASCIIHexDigit || ("a"..."z").contains(scalars[$0]) || ("A"..."Z").contains(scalars[$0]) })
        else { return text + "x" }
        let scalar = scalars[index]
        let next: Unicode.Scalar =
            switch scalar {
            case "9": "0"
            case "z": "a"
            case "Z": "A"
            default: Unicode.Scalar(scalar.value + 1)!
            }
        scalars[index] = next
        return String(String.UnicodeScalarView(scalars))
    }

    /// Every attempt so far, oldest first, optionally only those of `provider` and of `scope`, numbered at least
    /// `from`.
    package func attempts(provider: String? = nil, scope: ClockScope? = nil, from: Int = 0) -> [WebhookAttempt] {
        self.state.withLock { state in
            state.log.filter { attempt in
                (provider == nil || attempt.provider == provider) && (scope == nil || attempt.scope == scope)
                    && attempt.sequence >= from
            }
        }
    }

    /// The attempts logged and the attempts dropped from the log so far.
    package var usage: (entries: Int, evicted: Int) {
        self.state.withLock { ($0.log.count, $0.evicted) }
    }

    /// Clears the log and forgets pending retries (their jobs are dropped by the host's scheduler reset; a retry
    /// that is running finishes but is neither logged nor retried).
    package func reset() {
        self.state.withLock { state in
            state = State(generation: state.generation + 1, evicted: state.evicted)
        }
    }

    /// Sends attempt `number` of `delivery`, logs it and schedules the next one after a failure.
    private func attempt(_ number: Int, of delivery: Delivery, scheduledAt: Date, receiverTimesOut: Bool = false) async -> WebhookAttempt {
        let webhook = delivery.webhook
        let sentAt = self.scopes.clock(for: webhook.scope).now()
        var status: Int?
        var failure: String?
        var body: [UInt8] = []
        let request = webhook.request(forAttempt: number)
        do {
            let reply = try await self.transport.send(url: webhook.url, headers: request.headers, body: request.body)
            if receiverTimesOut {
                // The receiver got it, but its answer "never came": a failure, retried on schedule.
                failure = "the receiver timed out (injected fault receiverTimeout)"
            } else {
                status = reply.status
                body = reply.body
            }
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
        var record = WebhookAttempt(
            deliveryID: delivery.id, provider: webhook.provider, url: webhook.url, scope: webhook.scope,
            attempt: number, maximumAttempts: webhook.schedule.maximumAttempts, scheduledAt: scheduledAt,
            sentAt: sentAt, status: status, error: failure,
            responseBody: String(decoding: body.prefix(Self.responseBodyLimit), as: UTF8.self),
            responseBodyTruncated: body.count > Self.responseBodyLimit, nextAttemptAt: nextAt, delivered: delivered)
        record.sentHeaders = request.headers.map { RecordedRequest.Header(name: $0.name, value: $0.value) }
        record.sentBody = String(decoding: request.body.prefix(RecordedRequest.maximumBodyBytes), as: UTF8.self)
        record.sequence = self.numbering()
        let current = self.state.withLock { state in
            guard state.generation == delivery.generation else { return false }
            state.log.append(record)
            if state.log.count > self.maximumLogEntries {
                state.evicted += state.log.count - self.maximumLogEntries
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
