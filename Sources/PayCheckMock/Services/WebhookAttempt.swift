package import Foundation
package import PayCheckCore

/// One attempt at delivering a webhook, as the dispatcher logs it and `GET /__paycheck/webhooks` lists it.
package struct WebhookAttempt: Sendable, Equatable {
    /// The delivery this attempt belongs to, e.g. `wh-3`; the same for every attempt of one webhook.
    package let deliveryID: String
    /// The provider id.
    package let provider: String
    /// The merchant's URL.
    package let url: String
    /// The clock scope of the delivery.
    package let scope: ClockScope
    /// The attempt number, from 1.
    package let attempt: Int
    /// How many attempts the schedule allows.
    package let maximumAttempts: Int
    /// When the schedule wanted it sent (mock clock of the scope).
    package let scheduledAt: Date
    /// When it was sent (mock clock of the scope); later than ``scheduledAt`` when the clock jumped past it.
    package let sentAt: Date
    /// The receiver's status; `nil` when no answer arrived.
    package let status: Int?
    /// Why no answer arrived; `nil` when one did.
    package let error: String?
    /// The start of the response body as text (at most ``WebhookDispatcher/responseBodyLimit`` bytes).
    package let responseBody: String
    /// Whether ``responseBody`` was cut.
    package let responseBodyTruncated: Bool
    /// When the next attempt is due; `nil` after a success or the last attempt.
    package let nextAttemptAt: Date?

    /// Whether the receiver acknowledged it (a 2xx, unless the webhook's ``Webhook/acknowledges`` says otherwise).
    package let delivered: Bool
    /// The headers sent.
    package var sentHeaders: [RecordedRequest.Header] = []
    /// The body sent, as UTF-8 (at most ``RecordedRequest/maximumBodyBytes`` bytes).
    package var sentBody = ""
    /// The attempt's number in the host's journal numbering (see ``RequestJournal/nextSequence``).
    package var sequence = 0

    /// The record as JSON, timestamps in ISO 8601.
    package var json: Value {
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
