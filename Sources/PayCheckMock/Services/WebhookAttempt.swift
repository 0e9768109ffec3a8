import Foundation
import PayCheckCore

/// One attempt at delivering a webhook, as the dispatcher logs it and `GET /__paycheck/webhooks` lists it.
public struct WebhookAttempt: Sendable, Equatable {
    /// The delivery this attempt belongs to, e.g. `wh-3`; the same for every attempt of one webhook.
    public let deliveryID: String
    /// The provider id.
    public let provider: String
    /// The merchant's URL.
    public let url: String
    /// The clock scope of the delivery.
    public let scope: ClockScope
    /// The attempt number, from 1.
    public let attempt: Int
    /// How many attempts the schedule allows.
    public let maximumAttempts: Int
    /// When the schedule wanted it sent (mock clock of the scope).
    public let scheduledAt: Date
    /// When it was sent (mock clock of the scope); later than ``scheduledAt`` when the clock jumped past it.
    public let sentAt: Date
    /// The receiver's status; `nil` when no answer arrived.
    public let status: Int?
    /// Why no answer arrived; `nil` when one did.
    public let error: String?
    /// The start of the response body as text (at most ``WebhookDispatcher/responseBodyLimit`` bytes).
    public let responseBody: String
    /// Whether ``responseBody`` was cut.
    public let responseBodyTruncated: Bool
    /// When the next attempt is due; `nil` after a success or the last attempt.
    public let nextAttemptAt: Date?

    /// Whether the receiver acknowledged it (a 2xx, unless the webhook's ``Webhook/acknowledges`` says otherwise).
    public let delivered: Bool
    /// The headers sent.
    public var sentHeaders: [RecordedRequest.Header] = []
    /// The body sent, as UTF-8 (at most ``RecordedRequest/maximumBodyBytes`` bytes).
    public var sentBody = ""
    /// The attempt's number in the host's journal numbering (see ``RequestJournal/nextSequence``).
    public var sequence = 0

    /// The record as JSON, timestamps in ISO 8601.
    public var json: Value {
        .object([
            "deliveryId": .string(self.deliveryID),
            "provider": .string(self.provider),
            "url": .string(self.url),
            "scope": .string(self.scope.id),
            "attempt": .int(self.attempt),
            "maximumAttempts": .int(self.maximumAttempts),
            "scheduledAt": .string(ISOTimestamp.format(self.scheduledAt)),
            "sentAt": .string(ISOTimestamp.format(self.sentAt)),
            "status": self.status.map { .int($0) } ?? .null,
            "error": self.error.map { .string($0) } ?? .null,
            "delivered": .bool(self.delivered),
            "responseBody": .string(self.responseBody),
            "responseBodyTruncated": .bool(self.responseBodyTruncated),
            "nextAttemptAt": self.nextAttemptAt.map { .string(ISOTimestamp.format($0)) } ?? .null,
            "sequence": .int(self.sequence),
            "sentHeaders": .array(self.sentHeaders.map { .array([.string($0.name), .string($0.value)]) }),
            "sentBody": .string(self.sentBody),
        ])
    }
}
