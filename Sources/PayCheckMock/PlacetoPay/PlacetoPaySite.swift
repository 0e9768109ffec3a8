import Foundation
import PayCheckCore
import PayCheckProviders

/// A PlacetoPay site (merchant account) known to the mock: its credentials, state and notification settings.
struct PlacetoPaySite: Sendable, Equatable {
    /// The public site identifier, `auth.login` (max 32 characters, providers.md §1.2).
    var login: String
    /// The secret key that signs `tranKey` and notifications; never echoed by the control API.
    var secretKey: String
    /// Active, or the state behind auth codes 104–106 (providers.md §1.3).
    var status: PlacetoPayAuthVerifier.SiteStatus = .active
    /// Where final-state notifications are POSTed; `nil` sends none (providers.md §1.9).
    var notificationUrl: String?
    /// Whether a legacy SHA-1 `tranKey` is accepted besides SHA-256. On by default: the official PHP
    /// (`dnetix/redirection`) and .NET SDKs always sign with SHA-1, and the docs' SHA-256 migration page
    /// (`migration-sha256.mdx`, FAQ) says API authentication needs no change. A site may set it off.
    var acceptsSHA1 = true
    /// The notification signature algorithm. Bare SHA-1 hex by default: sites notify with SHA-1 until SHA-256 is
    /// activated for them (`migration-sha256.mdx`, phase 2); `sha256` (`sha256:`-prefixed hex) is a site option.
    var notificationAlgorithm: PlacetoPayHashAlgorithm = .sha1
    /// When a failed final-state notification is retried. providers.md §1.9 says PlacetoPay does **not** retry
    /// ("exactly one attempt regardless of timeout/error"), so the default is a single attempt; a suite can set
    /// offsets (`mock: site` with `notificationRetries: ["1m", "5m"]`) to test a receiver's retry handling.
    var notificationRetries: WebhookRetrySchedule = .once
    /// The default `locale` of the site's sessions (§1.4), and the fallback for a missing or unsupported one.
    var locale = "es_CO"
    /// Whether the site may create `metadata.requiresConfirmation` sessions (confirmation-flow page: "The
    /// merchant's site must have the `allowConfirmationFlow` setting enabled"). On for the mock's sites by default
    /// (a choice, so the flow can be tried at once); a site may set it off.
    var allowConfirmationFlow = true
    /// How long after approval a transaction is settled in the bank network. Before that a `reverse` must be
    /// full (refund page: "partial refunds cannot be made"). The page gives no timing; the default `0s` settles at
    /// once, and a site may set e.g. `1d` (`mock: site` with `settlementDelay`).
    var settlementDelay: TimeInterval = 0
    /// The most digits before the decimal point of an amount (`payment.amount.total`, tax and detail lines, a
    /// transaction action's `amount.total`). The docs give no bound (§1.4 "number, major units"); 12 by default,
    /// a choice (`mock: site` with `maxAmountDigits`).
    var maxAmountDigits = AmountRule.defaultIntegerDigits

    /// The sites every mock starts with (and returns to on reset): the test site and one per auth code 104–106.
    static let defaults: [PlacetoPaySite] = [
        PlacetoPaySite(
            login: PlacetoPayProvider().mockCredentials["login"] ?? "", secretKey: PlacetoPayProvider().mockCredentials["secretKey"] ?? ""),
        PlacetoPaySite(login: "paycheck-inactive", secretKey: "paycheck-inactive-secret", status: .inactive),
        PlacetoPaySite(login: "paycheck-expired", secretKey: "paycheck-expired-secret", status: .expired),
        PlacetoPaySite(
            login: "paycheck-expired-credentials", secretKey: "paycheck-expired-credentials-secret",
            status: .expiredCredentials),
    ]

    /// The site as the control API shows it; the secret key is deliberately left out.
    var json: Value {
        .object([
            "login": .string(self.login),
            "status": .string(self.status.rawValue),
            "notificationUrl": self.notificationUrl.map { .string($0) } ?? .null,
            "acceptsSHA1": .bool(self.acceptsSHA1),
            "notificationAlgorithm": .string(self.notificationAlgorithm.rawValue),
            "notificationRetries": .array(self.notificationRetries.retryOffsetTexts.map { .string($0) }),
            "locale": .string(self.locale),
            "allowConfirmationFlow": .bool(self.allowConfirmationFlow),
            "settlementDelay": .string("\(Value.format(self.settlementDelay))s"),
            "maxAmountDigits": .int(self.maxAmountDigits),
        ])
    }

    /// The verifier's view of the site.
    var verifierSite: PlacetoPayAuthVerifier.Site {
        PlacetoPayAuthVerifier.Site(secretKey: self.secretKey, status: self.status)
    }

    /// The languages the localization page lists: Spanish, English, Portuguese and Italian.
    static let supportedLanguages: Set<String> = ["es", "en", "pt", "it"]

    /// Whether `locale` matches the documented pattern `^\w{2}_[A-Z]{2}` (providers.md §1.4), e.g. `es_CO`.
    static func isValidLocale(_ locale: String) -> Bool {
        let scalars = Array(locale.unicodeScalars)
        guard scalars.count >= 5 else { return false }
        let word = { (scalar: Unicode.Scalar) in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
        }
        return word(scalars[0]) && word(scalars[1]) && scalars[2] == "_"
            && ("A"..."Z").contains(scalars[3]) && ("A"..."Z").contains(scalars[4])
    }
}
