/// The Yuno Test Payment Gateway table (providers.md §3.10, §3.13 P2-24): five brands, eight suffixes, one
/// transaction response code each; or the description set to the code; card data wins.
enum YunoTestCards {
    static let prefixes = ["45079900000000", "52524400000000", "3700000000000", "36471660000000", "11390000000000"]
    static let suffixes = [
        "02": "SUCCEEDED", "10": "INSUFFICIENT_FUNDS", "28": "DECLINED_BY_BANK", "36": "DO_NOT_HONOR",
        "44": "INVALID_SECURITY_CODE", "51": "INVALID_CARD_DATA", "69": "REPORTED_STOLEN", "77": "ERROR",
    ]

    static func code(number: String) -> String? {
        guard prefixes.contains(where: { number.hasPrefix($0) && number.count == $0.count + 2 }) else { return nil }
        return suffixes[String(number.suffix(2))]
    }

    static func code(description: String) -> String? {
        Set(suffixes.values).union(extraCodes).contains(description) ? description : nil
    }

    /// What `card_data` says of a card beyond its digits (the token, the payment and the saved card carry it).
    struct Profile: Sendable, Equatable {
        var brand: String
        /// `CREDIT`, `DEBIT`, … (Yuno: "the type of the card's issuer").
        var type: String
        /// `CLASSIC`, `TRADITIONAL`, `PREPAID RELOADABLE`, … (Yuno's examples).
        var category: String
        var issuerName: String
        /// The issuing country; `nil` takes the checkout session's country.
        var countryCode: String?
    }

    /// Card data for a card nobody has described: what `mock: gateway {card_type, card_category, card_issuer}`
    /// sets. Yuno's test-gateway tables give no type, category or issuer for their cards, so these are choices
    /// (docs/providers/yuno.md): `CREDIT`, `CLASSIC` and an empty issuer name (Yuno's own empty card data uses `""`),
    /// strings as the OpenAPI files type them, never `null`.
    struct UnknownCard: Sendable, Equatable {
        var type = "CREDIT"
        var category = "CLASSIC"
        var issuerName = ""
    }

    /// The BINs Yuno's OpenAPI files show with their card data (yuno-docs, branch main), as the examples give them.
    static let describedBINs: [String: Profile] = [
        // checkout-sessions/create-one-time-use-token-sdk-checkout.json "Created - Card Payment";
        // payments/create-payment.json "Card - With card details" (test card 4111 1111 1111 1111).
        "41111111": Profile(brand: "VISA", type: "DEBIT", category: "CLASSIC", issuerName: "CONOTOXIA SP Z O O", countryCode: "PL"),
        // payments/create-payment.json "Payment".
        "41961111": Profile(brand: "VISA", type: "DEBIT", category: "PREPAID RELOADABLE", issuerName: "METABANK", countryCode: "US"),
        // payments/*.json examples.
        "40000000": Profile(brand: "VISA", type: "CREDIT", category: "TRADITIONAL", issuerName: "INTL HDQTRSCENTER OWNED", countryCode: "FR"),
        "42424242": Profile(brand: "VISA", type: "CREDIT", category: "CLASSIC", issuerName: "STRIPE PAYMENTS UK", countryCode: "GB"),
        // payments/disputes.json.
        "45130761": Profile(brand: "VISA", type: "CREDIT", category: "CLASSIC", issuerName: "BANCOLOMBIA", countryCode: "CO"),
    ]

    /// The card data of `number`: its BIN's as Yuno's examples describe it, else the brand by prefix and `unknown`.
    static func profile(_ number: String, unknown: UnknownCard) -> Profile {
        if let described = describedBINs[String(number.prefix(8))] { return described }
        return Profile(brand: brand(number), type: unknown.type, category: unknown.category, issuerName: unknown.issuerName)
    }

    static func brand(_ number: String) -> String {
        if number.hasPrefix("1139") { return "UATP" }
        if number.hasPrefix("4") { return "VISA" }
        if number.hasPrefix("5") { return "MASTERCARD" }
        if number.hasPrefix("34") || number.hasPrefix("37") { return "AMERICAN_EXPRESS" }
        if number.hasPrefix("36") || number.hasPrefix("30") { return "DINERS" }
        return "UNKNOWN"
    }

    /// The other transaction codes of §3.6 the description trick accepts (PayCheck's extension, docs/providers/yuno.md).
    static let extraCodes: Set<String> = [
        "CHALLENGE_REQUIRED", "PENDING_PROVIDER_CONFIRMATION", "FRAUD_VALIDATION", "PROVIDER_TIMEOUT",
        "EXPIRED_CARD",
    ]

    /// Transaction messages for the codes.
    static func message(_ code: String) -> String {
        switch code {
        case "SUCCEEDED": "Transaction successful"
        case "CHALLENGE_REQUIRED": "Challenge required"
        case "PENDING_PROVIDER_CONFIRMATION": "Pending provider confirmation"
        case "FRAUD_VALIDATION": "Fraud validation"
        case "PROVIDER_TIMEOUT": "Provider timeout"
        case "EXPIRED_CARD": "Expired card"
        case "CANCELLED_BY_USER": "Cancelled by user"
        case "INSUFFICIENT_FUNDS": "Insufficient funds"
        case "DECLINED_BY_BANK": "Declined by bank"
        case "DO_NOT_HONOR": "Do not honor"
        case "INVALID_SECURITY_CODE": "Invalid security code"
        case "INVALID_CARD_DATA": "Invalid card data"
        case "REPORTED_STOLEN": "Reported stolen"
        default: "Error"
        }
    }
}
