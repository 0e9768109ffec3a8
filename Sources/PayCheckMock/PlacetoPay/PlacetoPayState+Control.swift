import Foundation
import PayCheckCore
import PayCheckProviders
import HTTPTypes

/// The mock's own control operations: sites, notifications and the process-URL page.
extension PlacetoPayState {
    /// The members of a site body.
    static let siteMembers = PlacetoPayControlAction.parameters(.mock, "site").filter { $0 != "login" }

    /// `mock: site` (`POST /__paycheck/placetopay/mock/site`): creates the site (then `secretKey` is required) or updates the
    /// members given. Answers the site without its secret.
    mutating func putSite(_ login: String, json: [String: Value]) throws(MockHTTPError) -> Value {
        guard !login.isEmpty, login.count <= 32 else {
            throw MockHTTPError(
                .badRequest, "site login must be 1 to 32 characters (§1.2), got \(MockHTTPError.quoted(login))")
        }
        try PlacetoPayPayerAttempt.rejectUnknown(json, allowed: Self.siteMembers)
        var site: PlacetoPaySite
        if let existing = self.sites[login] {
            site = existing
        } else {
            guard json["secretKey"] != nil else {
                throw MockHTTPError(
                    .badRequest, "'secretKey' is required to create site \(MockHTTPError.quoted(login))")
            }
            site = PlacetoPaySite(login: login, secretKey: "")
        }
        if let value = json["secretKey"] {
            guard let secret = value.stringValue, !secret.isEmpty else {
                throw MockHTTPError(.badRequest, "'secretKey' must be a non-empty string")
            }
            site.secretKey = secret
        }
        if let value = json["status"] {
            guard let status = value.stringValue.flatMap(PlacetoPayAuthVerifier.SiteStatus.init(rawValue:)) else {
                throw MockHTTPError(
                    .badRequest,
                    "'status' must be one of active, inactive, expired, expiredCredentials, got \(MockHTTPError.quoted(value.displayText))"
                )
            }
            site.status = status
        }
        if let value = json["notificationUrl"] {
            site.notificationUrl = try Self.notificationURL(value)
        }
        if let value = json["acceptsSHA1"] {
            guard case .bool(let flag) = value else {
                throw MockHTTPError(
                    .badRequest, "'acceptsSHA1' must be true or false, got \(MockHTTPError.quoted(value.displayText))")
            }
            site.acceptsSHA1 = flag
        }
        if let value = json["notificationAlgorithm"] {
            guard let algorithm = value.stringValue.flatMap(PlacetoPayHashAlgorithm.init(rawValue:)) else {
                throw MockHTTPError(
                    .badRequest,
                    "'notificationAlgorithm' must be sha256 or sha1, got \(MockHTTPError.quoted(value.displayText))")
            }
            site.notificationAlgorithm = algorithm
        }
        if let value = json["notificationRetries"] {
            let texts = value.arrayValue?.compactMap(\.stringValue)
            guard let texts, texts.count == value.arrayValue?.count,
                let schedule = WebhookRetrySchedule(parsing: texts)
            else {
                throw MockHTTPError(
                    .badRequest,
                    "'notificationRetries' must be an array of durations such as [\"1m\", \"5m\"], got "
                        + MockHTTPError.quoted(value.displayText))
            }
            site.notificationRetries = schedule
        }
        if let value = json["locale"] {
            guard let locale = value.stringValue, PlacetoPaySite.isValidLocale(locale) else {
                throw MockHTTPError(
                    .badRequest, "'locale' must look like es_CO, got \(MockHTTPError.quoted(value.displayText))")
            }
            site.locale = locale
        }
        if let value = json["allowConfirmationFlow"] {
            guard let flag = value.boolValue else {
                throw MockHTTPError(
                    .badRequest,
                    "'allowConfirmationFlow' must be true or false, got \(MockHTTPError.quoted(value.displayText))")
            }
            site.allowConfirmationFlow = flag
        }
        if let value = json["settlementDelay"] {
            guard let text = value.stringValue, let seconds = try? DurationText.parse(text) else {
                throw MockHTTPError(
                    .badRequest,
                    "'settlementDelay' must be a duration such as \"1d\" or \"0s\", got "
                        + MockHTTPError.quoted(value.displayText))
            }
            site.settlementDelay = seconds
        }
        if let value = json["maxAmountDigits"] {
            guard let digits = value.wholeNumber, (1...18).contains(digits) else {
                throw MockHTTPError(
                    .badRequest,
                    "'maxAmountDigits' must be a whole number from 1 to 18, got \(MockHTTPError.quoted(value.displayText))")
            }
            site.maxAmountDigits = digits
        }
        self.sites[login] = site
        return site.json
    }

    /// The notification URL of a site body: an `http(s)://` URL, or `null` for none.
    static func notificationURL(_ value: Value) throws(MockHTTPError) -> String? {
        if value == .null { return nil }
        guard let text = value.stringValue, Self.isHTTPURL(text) else {
            throw MockHTTPError(
                .badRequest,
                "'notificationUrl' must be an http:// or https:// URL or null, got \(MockHTTPError.quoted(value.displayText))"
            )
        }
        return text
    }

    /// Whether `text` is an absolute `http` or `https` URL with a host.
    static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else {
            return false
        }
        return scheme == "http" || scheme == "https"
    }

    /// The notification of final session `requestId` addressed to `url` (or the site's URL) for
    /// `mock: notify` (`POST /__paycheck/placetopay/mock/notify`).
    mutating func resendNotification(
        _ requestId: Int,
        url: String?,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(MockHTTPError) -> PlacetoPayNotification {
        guard let session = self.refreshedSession(requestId, now: now, outbox: &outbox) else {
            throw MockHTTPError(.notFound, "no PlacetoPay session with requestId \(requestId)")
        }
        guard session.isFinal else {
            throw MockHTTPError(
                .badRequest,
                "session \(requestId) is not final (\(session.status.status)/\(session.status.reason)); only final "
                    + "sessions are notified (§1.9)")
        }
        guard let site = self.sites[session.login], let target = url ?? site.notificationUrl else {
            throw MockHTTPError(.badRequest, "'url' is required: site '\(session.login)' has no notificationUrl")
        }
        return PlacetoPayNotification(session: session, site: site, url: target, trigger: .resend)
    }

    /// The session of the process URL `/placetopay/session/{requestId}/{hash}`, evaluated at `now` (an expiry that is
    /// due is noticed); `nil` for an unknown session or a hash that is not its.
    mutating func checkoutSession(
        _ requestId: Int,
        hash: String,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) -> PlacetoPaySession? {
        guard let stored = self.sessions[requestId], stored.processUrl.hasSuffix("/\(requestId)/\(hash)") else { return nil }
        return self.refreshedSession(requestId, now: now, outbox: &outbox)
    }
}
