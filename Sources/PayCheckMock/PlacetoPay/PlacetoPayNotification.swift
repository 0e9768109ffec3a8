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
        /// Forged through `mock: forge`: a status the session does not have, signed without the site's key.
        case forged
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
            requestId: session.requestId, status: session.status.status.rawValue, date: session.status.dateText,
            secretKey: site.secretKey, algorithm: site.notificationAlgorithm)
    }

    /// A forged notification for `session`: claiming `status` at `now`, signed with `key` instead of the site's
    /// secret key (`mock: forge`).
    init(forging status: PlacetoPayStatus.Name, for session: PlacetoPaySession, site: PlacetoPaySite, url: String, now: Date, key: String) {
        self.requestId = session.requestId
        self.url = url
        let reason = status == .approved ? PlacetoPayStatus.Reason.approved : "05"
        self.status = PlacetoPayStatus(status: status, reason: reason, message: "The request has been \(status.rawValue.lowercased())", date: now)
        self.reference = session.request.reference
        self.trigger = .forged
        self.locale = session.locale
        self.retries = .once
        self.signature = PlacetoPayNotificationSignature.sign(
            requestId: session.requestId, status: status.rawValue, date: self.status.dateText, secretKey: key,
            algorithm: site.notificationAlgorithm)
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
