package import PayCheckCore

extension KhipuProvider {
    /// The rules a merchant's backend is held to (findings, `paycheck explain <rule>`).
    package enum MerchantRules {
        /// The API key (or the secret) sent from a mobile app (§2.8: the app gets a payment id from its backend).
        static let keyInMobileApp = FindingRule(
            "khipu.key-in-mobile-app", .error, "the API key stays on the backend",
            explanation: "A request with khipu's x-api-key (or a 2.0 signature made with the secret) came with a mobile app's "
                + "User-Agent: the key ships inside the app, where anyone can extract it and create or read payments in the "
                + "merchant's name. The app asks the backend, which calls khipu; the app only opens the payment_url or the "
                + "khipu app with the payment id.",
            source: "providers.md §2.1, §2.8")
        /// A 3.0 create asking for notifications without saying they are 3.0 ones (§2.7).
        package static let notifyAPIVersion = FindingRule(
            "khipu.notify-api-version", .warning, "a 3.0 payment with a notify_url asks for notify_api_version \"3.0\"",
            explanation: "khipu's notification API 3.0 (the payment as signed JSON) is asked for with notify_api_version "
                + "\"3.0\" next to notify_url; without it the notification may come in the 1.3 form (only a notification_token "
                + "to look up), which a handler written for 3.0 cannot read, and the order is never fulfilled.",
            source: "providers.md §2.7; docs.khipu.com/portal/en/payment-webhook")
        /// An amount with decimals in a currency without minor units.
        static let amountDecimals = FindingRule(
            "khipu.amount-decimals", .warning, "a CLP amount is a whole number of pesos",
            explanation: "CLP has no minor units (ISO 4217): an amount such as 1000.5 is rounded or refused, so the payer pays "
                + "another amount than the order's. Send whole pesos for CLP.",
            source: "providers.md §2.4; ISO 4217")
        /// A create without the merchant's order id (§2.4 `transaction_id`).
        static let missingTransactionID = FindingRule(
            "khipu.missing-transaction-id", .warning, "a payment names the merchant's order in transaction_id",
            explanation: "Without transaction_id a notification can be matched to an order only by the payment_id the backend "
                + "stored; khipu's own plugins require transaction_id in every notification they accept (PrestaShop) and the "
                + "payment cannot be found from the order in khipu's dashboard. Send the order's id.",
            source: "providers.md §2.4, §2.12 A10")
        /// A create that asks for no notification (§2.7).
        static let missingNotifyURL = FindingRule(
            "khipu.missing-notify-url", .warning, "a payment is created with a notify_url",
            explanation: "Without notify_url the backend learns that a transfer was reconciled only if it asks khipu; a payer "
                + "who closes the app after paying leaves the order unpaid. Give the backend's notification URL on every create.",
            source: "providers.md §2.7")
        /// Plain-http return, cancel or notification URLs.
        static let insecureURL = FindingRule(
            "khipu.insecure-url", .warning, "return_url, cancel_url and notify_url use https (or the app's own scheme)",
            explanation: "Over plain http the payment and its notification can be read or changed on the way. Use https, or a "
                + "deep link for a mobile app's return.",
            source: "providers.md §2.4, §2.7")

        /// Whether `request` creates a payment (API 3.0 or 2.0).
        static func isCreate(_ request: MerchantRequest) -> Bool {
            request.method == "POST" && (request.path == "/v3/payments" || request.path == "/api/2.0/payments")
        }

        /// All of them.
        static let all: [MerchantRule] = [
            MerchantRule(keyInMobileApp) { request in
                let signed = request.header("x-api-key") != nil || request.header("Authorization") != nil
                return signed && request.comesFromMobileApp ? ["khipu credentials sent with User-Agent '\(request.header("User-Agent") ?? "")'"] : []
            },
            MerchantRule(notifyAPIVersion) { request in
                guard request.method == "POST", request.path == "/v3/payments", let notify = request.body?["notify_url"]?.stringValue,
                    !notify.isEmpty
                else { return [] }
                let version = request.body?["notify_api_version"]?.interpolated ?? ""
                return version == "3.0" ? [] : ["notify_url is set but notify_api_version is \(version.isEmpty ? "missing" : "\"\(version)\""), not \"3.0\""]
            },
            MerchantRule(amountDecimals) { request in
                guard isCreate(request), request.body?["currency"]?.stringValue == "CLP", let amount = request.body?["amount"],
                    let value = amount.numberValue, value.rounded() != value
                else { return [] }
                return ["amount \(amount.interpolated) has decimals; CLP has none"]
            },
            MerchantRule(missingTransactionID) { request in
                isCreate(request) && (request.body?["transaction_id"]?.interpolated ?? "").isEmpty
                    ? ["the payment was created without a transaction_id"] : []
            },
            MerchantRule(missingNotifyURL) { request in
                isCreate(request) && (request.body?["notify_url"]?.stringValue ?? "").isEmpty
                    ? ["the payment was created without a notify_url"] : []
            },
            MerchantRule(insecureURL) { request in
                guard isCreate(request) else { return [] }
                return ["return_url", "cancel_url", "notify_url"].compactMap { field in
                    let url = request.body?[field]?.stringValue
                    return MerchantRule.insecureURL(url) ? "\(field) '\(url ?? "")' is plain http" : nil
                }
            },
        ]
    }

    package var merchantRules: [MerchantRule] { MerchantRules.all }
}
