package import PayCheckCore

extension YunoProvider {
    /// The rules a merchant's backend is held to (findings, `paycheck explain <rule>`).
    package enum MerchantRules {
        /// A payment created without `X-Idempotency-Key` (§3.2: required on `POST /payments`).
        static let missingIdempotencyKey = FindingRule(
            "yuno.missing-idempotency-key", .error, "a payment is created with an X-Idempotency-Key",
            explanation: "Yuno requires X-Idempotency-Key on POST /v1/payments and answers 400 without it. It is also what "
                + "makes a retry safe: after a lost answer, the same key answers the payment already made instead of charging "
                + "the card again. Send a fresh UUID per payment and reuse it for that payment's retries.",
            source: "providers.md §3.2, §3.13 P1-5")
        /// A create retried under a new key after the first spent the token (§3.2, §3.13 P1-5).
        package static let idempotencyKeyChanged = FindingRule(
            "yuno.idempotency-key-changed", .error, "a create is retried under the same X-Idempotency-Key",
            explanation: "A create whose answer was lost may have made the payment: retried under the same key, Yuno answers "
                + "that payment; under a new key the spent one-time token is refused (401) and the backend reports a failure "
                + "while Yuno holds a payment the shopper was charged for. Keep the key with the order until the create is "
                + "answered.",
            source: "providers.md §3.2, §3.13 P1-5")
        /// The private secret key used from a mobile app (§3.9: the app holds the public key only).
        static let secretInMobileApp = FindingRule(
            "yuno.secret-in-mobile-app", .error, "the private secret key stays on the backend",
            explanation: "A request with private-secret-key came with a mobile app's User-Agent: the key ships inside the app, "
                + "where anyone can extract it and create, capture or refund payments. The app's SDK needs only the public API "
                + "key and the checkout session; the backend creates sessions and payments.",
            source: "providers.md §3.2, §3.9")
        /// A payment from an SDK token without the checkout session it came from (§3.5).
        static let missingCheckoutSession = FindingRule(
            "yuno.missing-checkout-session", .error, "a payment from the SDK's token names its checkout session",
            explanation: "In the SDK flow the one-time token belongs to a checkout session, and POST /v1/payments needs "
                + "checkout.session (required for SDK_CHECKOUT): without it Yuno cannot tie the payment to the session the "
                + "app showed, and refuses it. Send the session the backend created for this order.",
            source: "providers.md §3.5")
        /// An amount that is not a number with at most 4 decimals, or a currency that is not an ISO code (§3.4).
        package static let amountFormat = FindingRule(
            "yuno.amount-format", .error, "amount.value is a number (a multiple of 0.0001) and amount.currency an ISO 4217 code",
            explanation: "Yuno's schema takes amount.value as a JSON number, a multiple of 0.0001, and amount.currency as an "
                + "ISO 4217 code: a value sent as text, with more decimals or a currency spelt otherwise is refused. Format "
                + "the amount from integer minor units.",
            source: "providers.md §3.4, §3.5")
        /// A country and a currency that do not go together (§3.4: the country list).
        static let countryCurrency = FindingRule(
            "yuno.country-currency", .warning, "the currency is the country's own (or USD)",
            explanation: "A checkout or payment in a country with another country's currency (CO with MXN) finds no payment "
                + "method that accepts it, or is converted at a rate nobody agreed to. Send the payer's country with its own "
                + "currency, or USD where the merchant's account takes it.",
            source: "providers.md §3.4; ISO 3166, ISO 4217")
        /// A plain-http callback URL.
        static let insecureURL = FindingRule(
            "yuno.insecure-url", .warning, "callback_url uses https (or the app's own scheme)",
            explanation: "The payer comes back to callback_url after a redirect or an alternative method; over plain http the "
                + "return can be read or changed on the way. Use https, or a deep link for a mobile app.",
            source: "providers.md §3.4")

        /// The local currency of each country Yuno lists (§3.4).
        static let currencies: [String: String] = [
            "AR": "ARS", "BO": "BOB", "BR": "BRL", "CL": "CLP", "CO": "COP", "CR": "CRC", "EC": "USD", "SV": "USD", "GT": "GTQ",
            "HN": "HNL", "MX": "MXN", "NI": "NIO", "PA": "PAB", "PY": "PYG", "PE": "PEN", "US": "USD", "UY": "UYU",
        ]

        /// Whether `request` carries an amount: a checkout session or a payment.
        static func carriesAmount(_ request: MerchantRequest) -> Bool {
            request.method == "POST" && (request.path == "/v1/payments" || request.path == "/v1/checkout/sessions")
        }

        /// All of them.
        static let all: [MerchantRule] = [
            MerchantRule(missingIdempotencyKey) { request in
                request.method == "POST" && request.path == "/v1/payments" && (request.header("X-Idempotency-Key") ?? "").isEmpty
                    ? ["POST /v1/payments without an X-Idempotency-Key header"] : []
            },
            MerchantRule(idempotencyKeyChanged),
            MerchantRule(secretInMobileApp) { request in
                request.header("private-secret-key") != nil && request.comesFromMobileApp
                    ? ["private-secret-key sent with User-Agent '\(request.header("User-Agent") ?? "")'"] : []
            },
            MerchantRule(missingCheckoutSession) { request in
                // Required when `workflow` is SDK_CHECKOUT or absent; not for DIRECT or REDIRECT (§3.13 P1-4).
                guard request.method == "POST", request.path == "/v1/payments", let body = request.body,
                    body["payment_method"]?["token"]?.stringValue != nil,
                    !["DIRECT", "REDIRECT"].contains(body["workflow"]?.stringValue ?? "")
                else { return [] }
                return (body["checkout"]?["session"]?.stringValue ?? "").isEmpty ? ["a payment from a one-time token without checkout.session"] : []
            },
            MerchantRule(amountFormat) { request in
                guard carriesAmount(request), let amount = request.body?["amount"] else { return [] }
                var problems: [String] = []
                if let value = amount["value"] {
                    if value.number == nil {
                        problems.append("amount.value is \(value.brief), not a number")
                    } else if let number = value.number, ((number * 10_000).rounded() - number * 10_000).magnitude > 1e-6 {
                        problems.append("amount.value \(value.interpolated) has more than 4 decimals")
                    }
                }
                if let currency = amount["currency"]?.stringValue,
                    currency.count != 3 || !currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })
                {
                    problems.append("amount.currency '\(currency)' is not an ISO 4217 code")
                }
                return problems
            },
            MerchantRule(countryCurrency) { request in
                guard carriesAmount(request), let country = request.body?["country"]?.stringValue,
                    let currency = request.body?["amount"]?["currency"]?.stringValue, let own = currencies[country],
                    currency != own, currency != "USD"
                else { return [] }
                return ["country \(country) with currency \(currency) (its own is \(own))"]
            },
            MerchantRule(insecureURL) { request in
                guard carriesAmount(request) else { return [] }
                let url = request.body?["callback_url"]?.stringValue
                return MerchantRule.insecureURL(url) ? ["callback_url '\(url ?? "")' is plain http"] : []
            },
        ]
    }

    package var merchantRules: [MerchantRule] { MerchantRules.all }
}
