package import Foundation

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

    /// Creates a record of one attempt.
    package init(
        deliveryID: String, provider: String, url: String, scope: ClockScope, attempt: Int, maximumAttempts: Int, scheduledAt: Date,
        sentAt: Date, status: Int?, error: String?, responseBody: String, responseBodyTruncated: Bool, nextAttemptAt: Date?,
        delivered: Bool
    ) {
        self.deliveryID = deliveryID
        self.provider = provider
        self.url = url
        self.scope = scope
        self.attempt = attempt
        self.maximumAttempts = maximumAttempts
        self.scheduledAt = scheduledAt
        self.sentAt = sentAt
        self.status = status
        self.error = error
        self.responseBody = responseBody
        self.responseBodyTruncated = responseBodyTruncated
        self.nextAttemptAt = nextAttemptAt
        self.delivered = delivered
    }

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

    /// Reads a record written by ``json`` (a standalone mock's `GET /__paycheck/webhooks`); `nil` when a field is
    /// missing or of the wrong type.
    package init?(json: Value) {
        guard let deliveryID = json["deliveryId"]?.stringValue, let provider = json["provider"]?.stringValue,
            let url = json["url"]?.stringValue, let scope = json["scope"]?.stringValue.flatMap(ClockScope.init),
            let attempt = json["attempt"]?.wholeNumber, let sentAt = json["sentAt"]?.stringValue.flatMap({ ISOTimestamp.parse($0) })
        else { return nil }
        self.init(
            deliveryID: deliveryID, provider: provider, url: url, scope: scope, attempt: attempt,
            maximumAttempts: json["maximumAttempts"]?.wholeNumber ?? attempt,
            scheduledAt: json["scheduledAt"]?.stringValue.flatMap({ ISOTimestamp.parse($0) }) ?? sentAt, sentAt: sentAt,
            status: json["status"]?.wholeNumber, error: json["error"]?.stringValue, responseBody: json["responseBody"]?.stringValue ?? "",
            responseBodyTruncated: json["responseBodyTruncated"]?.boolValue ?? false,
            nextAttemptAt: json["nextAttemptAt"]?.stringValue.flatMap({ ISOTimestamp.parse($0) }), delivered: json["delivered"]?.boolValue ?? false)
        self.sentHeaders = RecordedRequest.Header.pairs(json["sentHeaders"])
        self.sentBody = json["sentBody"]?.stringValue ?? ""
        self.sequence = json["sequence"]?.wholeNumber ?? 0
    }
}
