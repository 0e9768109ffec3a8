/// The Yuno Test Payment Gateway table (providers.md §3.10, §3.13 P2-24): five brands, eight suffixes, one
/// transaction response code each; or the description set to the code; card data wins.
enum YunoTestCards {
    static let prefixes = ["45079900000000", "52524400000000", "3700000000000", "36471660000000", "11390000000000"]
    static let suffixes = ["02": "SUCCEEDED", "10": "INSUFFICIENT_FUNDS", "28": "DECLINED_BY_BANK", "36": "DO_NOT_HONOR",
                           "44": "INVALID_SECURITY_CODE", "51": "INVALID_CARD_DATA", "69": "REPORTED_STOLEN", "77": "ERROR"]

    static func code(number: String) -> String? {
        guard prefixes.contains(where: { number.hasPrefix($0) && number.count == $0.count + 2 }) else { return nil }
        return suffixes[String(number.suffix(2))]
    }

    static func code(description: String) -> String? {
        Set(suffixes.values).union(extraCodes).contains(description) ? description : nil
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
    static let extraCodes: Set<String> = ["CHALLENGE_REQUIRED", "PENDING_PROVIDER_CONFIRMATION", "FRAUD_VALIDATION", "PROVIDER_TIMEOUT",
                                          "EXPIRED_CARD"]

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
