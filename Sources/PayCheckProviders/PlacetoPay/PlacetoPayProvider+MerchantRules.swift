package import PayCheckCore
import Foundation

extension PlacetoPayProvider {
    /// The rules a merchant's backend is held to (findings, `paycheck explain <rule>`).
    package enum MerchantRules {
        /// A nonce sent twice (§1.2: "fresh nonce+seed per request"); reported by the mock's nonce ledger.
        package static let nonceReused = FindingRule(
            "placetopay.nonce-reused", .error, "every request carries a nonce never used before",
            explanation: "PlacetoPay refuses a request whose nonce it has seen (authentication failure 102). Generate "
                + "16 random bytes per request, send them Base64-encoded as auth.nonce, and hash the raw bytes into tranKey.",
            source: "providers.md §1.2; PlacetoPay authentication.mdx")
        /// A seed outside the server's ±5 minute window (§1.2, §6.1); reported by the mock's verifier.
        package static let staleSeed = FindingRule(
            "placetopay.stale-seed", .error, "auth.seed is the current time (within 5 minutes of the server's)",
            explanation: "PlacetoPay refuses a seed more than 5 minutes from its clock (authentication failure 103). "
                + "Compute the seed when the request is sent, as ISO 8601 with the offset, and keep the server's clock synced.",
            source: "providers.md §1.2, §6.1; PlacetoPay authentication.mdx")
        /// A SHA-1 tranKey (§1.2 legacy formula).
        package static let sha1TranKey = FindingRule(
            "placetopay.sha1-trankey", .warning, "tranKey uses SHA-256, not the legacy SHA-1",
            explanation: "The documented formula is Base64(SHA-256(rawNonce + seed + secretKey)); SHA-1 is the legacy one "
                + "(the PHP SDK's default). Configure the SDK with sha256 before PlacetoPay stops accepting SHA-1.",
            source: "providers.md §1.2; PlacetoPay migration-sha256.mdx")
        /// The API called from a mobile app (§1.1 security considerations).
        static let authFromMobileApp = FindingRule(
            "placetopay.auth-from-mobile-app", .error, "the API is called by the backend, never by the app",
            explanation: "A request signed with the site's secret key came with a mobile app's User-Agent: the secret key "
                + "ships inside the app, where anyone can extract it. Create and query sessions from the backend only.",
            source: "providers.md §1.1; PlacetoPay how-checkout-works.mdx, Security considerations")
        /// An `http://` return URL (§1.4, §1.11).
        static let insecureReturnURL = FindingRule(
            "placetopay.insecure-return-url", .warning, "returnUrl and cancelUrl use https (or the app's own scheme)",
            explanation: "The payer's browser is sent to returnUrl after paying; over plain http the order reference can be "
                + "read or changed on the way. Use https, or a deep link for a mobile app.",
            source: "providers.md §1.4, §1.11")
        /// A session created without a reference (§1.4).
        static let missingReference = FindingRule(
            "placetopay.missing-reference", .error, "payment.reference names the merchant's order",
            explanation: "payment.reference is required and is how a notification and a query are matched to the order; "
                + "send the order's own id.",
            source: "providers.md §1.4")

        /// A session without the payer's IP address or browser (§1.4: both required).
        static let missingClientInfo = FindingRule(
            "placetopay.missing-client-info", .error, "a session names the payer's ipAddress and userAgent",
            explanation: "ipAddress and userAgent are required on POST /api/session: PlacetoPay answers 400 without them, and "
                + "its fraud checks run on them. Send the shopper's own address and User-Agent (from the app's request to the "
                + "backend), not the backend's.",
            source: "providers.md §1.4")
        /// An expiration less than 5 minutes after the request (§1.4).
        static let expirationTooSoon = FindingRule(
            "placetopay.expiration-too-soon", .error, "expiration is at least 5 minutes after the request",
            explanation: "PlacetoPay refuses a session that expires less than 5 minutes after it is created (the default is 30 "
                + "minutes): the payer could not finish paying. Leave expiration out, or set it 5 minutes or more ahead, with "
                + "the offset of the time zone it is written in.",
            source: "providers.md §1.4; PlacetoPay expiration.mdx")

        /// All of them.
        static let all: [MerchantRule] = [
            MerchantRule(missingClientInfo) { request in
                guard request.method == "POST", request.path == "/api/session", let body = request.body, body["payment"] != nil else { return [] }
                return ["ipAddress", "userAgent"].compactMap { field in
                    (body[field]?.stringValue ?? "").isEmpty ? "the session has no \(field)" : nil
                }
            },
            MerchantRule(expirationTooSoon) { request in
                guard request.method == "POST", request.path == "/api/session", let body = request.body,
                    let expiration = body["expiration"]?.stringValue, let seed = body["auth"]?["seed"]?.stringValue,
                    let expires = ISOTimestamp.parse(expiration), let sent = ISOTimestamp.parse(seed)
                else { return [] }
                let minutes = expires.timeIntervalSince(sent) / 60
                return minutes < 5 ? ["expiration \(expiration) is \(Value.format((minutes * 10).rounded() / 10)) minutes after the request's seed \(seed)"] : []
            },
            MerchantRule(nonceReused), MerchantRule(staleSeed), MerchantRule(sha1TranKey),
            MerchantRule(authFromMobileApp) { request in
                request.body?["auth"] != nil && request.comesFromMobileApp
                    ? ["signed request from User-Agent '\(request.header("User-Agent") ?? "")'"] : []
            },
            MerchantRule(insecureReturnURL) { request in
                ["returnUrl", "cancelUrl"].compactMap { field in
                    let url = request.body?[field]?.stringValue
                    return MerchantRule.insecureURL(url) ? "\(field) '\(url ?? "")' is plain http" : nil
                }
            },
            MerchantRule(missingReference) { request in
                guard request.method == "POST", request.path == "/api/session", let payment = request.body?["payment"] else { return [] }
                let reference = payment["reference"]?.stringValue ?? payment["reference"]?.interpolated ?? ""
                return reference.isEmpty ? ["the session has no payment.reference"] : []
            },
        ]
    }

    package var merchantRules: [MerchantRule] { MerchantRules.all }

    /// Used: the notification URL is the site's setting (§1.9).
    package var contractNotificationURLUnused: String? { nil }

    /// A site of its own for the run (a login derived from the scope, `secret` as its secret key), notified at
    /// `notificationURL`: PlacetoPay keeps the notification URL in the site's settings (§1.9), so runs sharing a
    /// mock each get a site.
    package func merchantAccount(scope: String, notificationURL: String?, secret: String) -> MerchantAccount {
        let login = "merchant-" + String(StableDigest.of([scope]).prefix(16))
        var site: [String: Value] = ["login": .string(login), "secretKey": .string(secret)]
        if let notificationURL { site["notificationUrl"] = .string(notificationURL) }
        return MerchantAccount(
            credentials: ["login": login, "secretKey": secret],
            setup: ProviderActionRequest(kind: .mock, name: "site", parameters: .object(site), auth: nil))
    }
}
