import Foundation
import PayCheckCore

extension PlacetoPayNotification {
    /// One delivery attempt, as `GET /__paycheck/placetopay/notifications` lists it.
    struct Delivery: Sendable {
        /// What was sent.
        let notification: PlacetoPayNotification
        /// The exact body text that was POSTed.
        let bodyText: String
        /// The merchant's HTTP status; `nil` when the request failed.
        let responseStatus: Int?
        /// Why the request failed; `nil` when a response arrived.
        let error: String?
        /// When it was sent (mock clock).
        let sentAt: Date

        /// The record as JSON.
        var json: Value {
            .object([
                "requestId": .int(self.notification.requestId),
                "url": .string(self.notification.url),
                "body": self.notification.body,
                "signature": .string(self.notification.signature),
                "responseStatus": self.responseStatus.map { .int($0) } ?? .null,
                "error": self.error.map { .string($0) } ?? .null,
                "sentAt": .string(PlacetoPayStatus.format(self.sentAt)),
                "trigger": .string(self.notification.trigger.rawValue),
            ])
        }
    }
}
