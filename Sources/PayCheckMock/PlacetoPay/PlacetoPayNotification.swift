import Foundation
import PayCheckCore
import PayCheckProviders

/// A merchant notification (webhook) ready to send: providers.md §1.9.
///
/// Body `{"status":{status,reason,message,date},"requestId":N,"reference":"…","signature":"…"}`, where
/// `signature` signs `requestId + status.status + status.date + secretKey` over the exact strings sent, with the
/// site's algorithm (`sha256:`-prefixed hex, or bare SHA-1 hex for legacy sites).
struct PlacetoPayNotification: Sendable {
    /// Why the notification is sent.
    enum Trigger: String, Sendable {
        /// The session just became final (sent once, never retried).
        case final
        /// Re-sent on request through `mock: notify` (`POST /__paycheck/placetopay/mock/notify`).
        case resend
    }

    /// The session id.
    let requestId: Int
    /// Where it is POSTed.
    let url: String
    /// The final session status it reports.
    let status: PlacetoPayStatus
    /// The payment (or subscription) reference.
    let reference: String
    /// The `signature` value.
    let signature: String
    /// Why it is sent.
    let trigger: Trigger
    /// The session's locale: the language of `status.message` (not signed, §1.9).
    let locale: String
    /// When a failed delivery is retried: the site's schedule (a single attempt by default, §1.9); a resend
    /// requested through the control API is a single attempt.
    let retries: WebhookRetrySchedule

    /// Prepares the notification of `session` for `site`, to `url`.
    init(session: PlacetoPaySession, site: PlacetoPaySite, url: String, trigger: Trigger) {
        self.requestId = session.requestId
        self.url = url
        self.status = session.status
        self.reference = session.request.reference
        self.trigger = trigger
        self.locale = session.locale
        self.retries = trigger == .final ? site.notificationRetries : .once
        self.signature = PlacetoPayNotificationSignature.sign(
            requestId: session.requestId, status: session.status.status, date: session.status.dateText,
            secretKey: site.secretKey, algorithm: site.notificationAlgorithm)
    }

    /// The JSON body.
    var body: Value {
        .object([
            "status": self.status.json(locale: self.locale),
            "requestId": .int(self.requestId),
            "reference": .string(self.reference),
            "signature": .string(self.signature),
        ])
    }
}
