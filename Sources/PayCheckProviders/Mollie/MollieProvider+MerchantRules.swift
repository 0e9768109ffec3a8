package import PayCheckCore
import Foundation

extension MollieProvider {
    /// The rules a merchant's backend is held to (findings, `paycheck explain <rule>`).
    package enum MerchantRules {
        /// A create without an idempotency key (§4.12: every official client sends one on POST).
        static let missingIdempotencyKey = FindingRule(
            "mollie.missing-idempotency-key", .warning, "a payment is created with an Idempotency-Key",
            explanation: "Without an Idempotency-Key, a create retried after a timeout makes a second payment for the same "
                + "order. Send a fresh key per order (Mollie's official clients send a UUID on every POST).",
            source: "providers.md §4.12; Mollie api-idempotency")
        /// An amount value that is not a string with the currency's decimals (§4.2).
        package static let amountFormat = FindingRule(
            "mollie.amount-format", .error, "amount.value is a string with exactly the currency's decimals",
            explanation: "Mollie takes amount.value as a string such as \"10.00\" (two decimals for EUR, none for JPY) and "
                + "answers 422 to a number or a different number of decimals. Format the amount from integer minor units.",
            source: "providers.md §4.2; Mollie create-payment")
        /// A live key sent to the test environment, or a key that is neither.
        static let keyOfOtherEnvironment = FindingRule(
            "mollie.key-of-another-environment", .error, "tests use a test_ API key",
            explanation: "A live_ key was sent to the test environment (the mock): the same configuration in production "
                + "takes real money in tests, or the test setup reaches production. Keep test_ keys for test runs.",
            source: "providers.md §4.1, §4.7")
        /// An API key used from a mobile app (§4.0: the app talks to the merchant backend only).
        static let keyInMobileApp = FindingRule(
            "mollie.key-in-mobile-app", .error, "the API key stays on the backend",
            explanation: "A request with an API key came with a mobile app's User-Agent: the key ships inside the app, where "
                + "anyone can extract it and refund or read every payment. Call Mollie from the backend only.",
            source: "providers.md §4.0; Mollie demo-checkout-ios GETTING_STARTED.md")
        /// A create without a webhook URL (§4.6).
        static let missingWebhookURL = FindingRule(
            "mollie.missing-webhook-url", .warning, "a payment is created with a webhookUrl",
            explanation: "Without webhookUrl the backend learns a payment's status only if it polls; an order paid after the "
                + "shopper closed the browser is never fulfilled. Give the backend's webhook URL on every create.",
            source: "providers.md §4.6")
        /// An `http://` redirect or webhook URL.
        static let insecureURL = FindingRule(
            "mollie.insecure-url", .warning, "redirectUrl and webhookUrl use https (or the app's own scheme)",
            explanation: "Over plain http the payment id and the shopper's return can be read or changed on the way; Mollie "
                + "refuses http webhook URLs in live mode. Use https, or a deep link for a mobile app's return.",
            source: "providers.md §4.2, §4.6")

        /// A create without the URL the shopper comes back to (§4.2: required but for recurring and direct Apple Pay).
        static let missingRedirectURL = FindingRule(
            "mollie.missing-redirect-url", .error, "a payment the shopper pays at Mollie has a redirectUrl",
            explanation: "redirectUrl is required on POST /v2/payments (only recurring payments and Apple Pay paid directly go "
                + "without): Mollie answers 422 without it, and a shopper who paid on Mollie's page has nowhere to come back "
                + "to. Give the return page, or the app's deep link.",
            source: "providers.md §4.2; Mollie create-payment")

        /// All of them.
        static let all: [MerchantRule] = [
            MerchantRule(missingRedirectURL) { request in
                guard request.method == "POST", request.path == "/v2/payments", let body = request.body,
                    (body["redirectUrl"]?.stringValue ?? "").isEmpty
                else { return [] }
                let exempt = body["sequenceType"]?.stringValue == "recurring" || body["applePayPaymentToken"] != nil
                return exempt ? [] : ["the payment was created without a redirectUrl"]
            },
            MerchantRule(missingIdempotencyKey) { request in
                request.method == "POST" && request.path == "/v2/payments" && request.header("Idempotency-Key") == nil
                    ? ["POST /v2/payments without an Idempotency-Key header"] : []
            },
            MerchantRule(amountFormat) { request in
                guard request.method == "POST", request.path == "/v2/payments" || request.path.hasSuffix("/refunds"),
                    let amount = request.body?["amount"]
                else { return [] }
                guard case .string(let value)? = amount["value"] else {
                    return ["amount.value is \(amount["value"].map { JSONText.encode($0) } ?? "missing"), not a string such as \"10.00\""]
                }
                let currency = amount["currency"]?.stringValue ?? ""
                let decimals = ["JPY", "ISK", "HUF"].contains(currency) ? 0 : 2
                let parts = value.split(separator: ".", omittingEmptySubsequences: false)
                let written = parts.count == 2 ? parts[1].count : 0
                return written == decimals ? [] : ["amount.value \"\(value)\" has \(written) decimals; \(currency.isEmpty ? "the currency" : currency) takes \(decimals)"]
            },
            MerchantRule(keyOfOtherEnvironment) { request in
                let key = (request.header("Authorization") ?? "").replacingOccurrences(of: "Bearer ", with: "")
                return key.hasPrefix("live_") ? ["a live_ API key was sent to the test environment"] : []
            },
            MerchantRule(keyInMobileApp) { request in
                request.header("Authorization") != nil && request.comesFromMobileApp
                    ? ["API key sent with User-Agent '\(request.header("User-Agent") ?? "")'"] : []
            },
            MerchantRule(missingWebhookURL) { request in
                request.method == "POST" && request.path == "/v2/payments" && (request.body?["webhookUrl"]?.stringValue ?? "").isEmpty
                    ? ["the payment was created without a webhookUrl"] : []
            },
            MerchantRule(insecureURL) { request in
                ["redirectUrl", "webhookUrl", "cancelUrl"].compactMap { field in
                    let url = request.body?[field]?.stringValue
                    return MerchantRule.insecureURL(url) ? "\(field) '\(url ?? "")' is plain http" : nil
                }
            },
        ]
    }

    package var merchantRules: [MerchantRule] { MerchantRules.all }
}
