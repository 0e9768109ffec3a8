import Foundation
import PayCheckCore

/// The documented limits of the OpenAPI file (`src/assets/apis/checkout/en.yaml`) that a create or collect request
/// must respect. Each violation is a 400 `FAILED`/`BR` naming the field (the mock's validation envelope; the
/// OpenAPI file documents none for `/api/session`).
extension PlacetoPaySessionRequest {
    /// `Person` (payer, buyer): `documentType` ≤ 6, `document` ≤ 25, `name`/`surname`/`company` ≤ 60,
    /// `email` ≤ 80 and an address shape, `mobile` ≤ 30.
    static func checkPerson(_ value: Value?, _ path: String, check: PlacetoPayFieldCheck) throws(PlacetoPayFailure) {
        guard let value, value != .null else { return }
        let person = try check.object(value, path)
        _ = try check.string(person, "document", in: path, required: false, maxLength: 25)
        _ = try check.string(person, "documentType", in: path, required: false, maxLength: 6)
        for key in ["name", "surname", "company"] {
            _ = try check.string(person, key, in: path, required: false, maxLength: 60)
        }
        _ = try check.string(person, "mobile", in: path, required: false, maxLength: 30)
        if let email = try check.string(person, "email", in: path, required: false, maxLength: 80),
            !Self.isEmail(email)
        {
            throw check.fail("The \(path).email field must be an email address, got \(Self.quoted(email))")
        }
    }

    /// `amount.taxes[].kind` and `amount.details[].kind` from the documented enumerations (OpenAPI `Taxes`,
    /// `Details`), each with an `amount` (and a tax's optional `base`) of 0 or more in the payment's currency.
    static func checkAmountItems(
        _ amount: [String: Value], currency: String, check: PlacetoPayFieldCheck
    ) throws(PlacetoPayFailure) {
        for (key, kinds) in [("taxes", Self.taxKinds), ("details", Self.detailKinds)] {
            guard let value = amount[key], value != .null else { continue }
            guard let items = value.arrayValue else {
                throw check.fail("The payment.amount.\(key) field must be an array, got \(value.typeDescription)")
            }
            for (index, item) in items.enumerated() {
                let path = "payment.amount.\(key)[\(index)]"
                let object = try check.object(item, path)
                let kind = try check.string(object, "kind", in: path, required: true, maxLength: 40) ?? ""
                guard kinds.contains(kind) else {
                    throw check.fail(
                        "The \(path).kind field must be one of \(kinds.sorted().joined(separator: ", ")), got \(Self.quoted(kind))")
                }
                guard let lineAmount = object["amount"], lineAmount != .null else {
                    throw check.fail("The \(path).amount field must be a number")
                }
                try check.amount(lineAmount, "\(path).amount", currency: currency, allowsZero: true)
                if let base = object["base"], base != .null {
                    try check.amount(base, "\(path).base", currency: currency, allowsZero: true)
                }
            }
        }
    }

    /// `payment.recurring` (§1.4, OpenAPI `Recurring`): `periodicity` D, M or Y; `interval` a whole number of at least
    /// 1; `maxPeriods` -1 (unlimited) or at least 1. The upper bound of both is the mock's choice (9999).
    static func checkRecurring(_ value: Value?, _ path: String, check: PlacetoPayFieldCheck) throws(PlacetoPayFailure) {
        guard let value, value != .null else { return }
        let recurring = try check.object(value, path)
        let periodicity = try check.string(recurring, "periodicity", in: path, required: true, maxLength: 1) ?? ""
        guard ["D", "M", "Y"].contains(periodicity) else {
            throw check.fail("The \(path).periodicity field must be D, M or Y, got \(Self.quoted(periodicity))")
        }
        try Self.checkCount(recurring["interval"], "\(path).interval", allowsUnlimited: false, required: true, check: check)
        try Self.checkCount(recurring["maxPeriods"], "\(path).maxPeriods", allowsUnlimited: true, required: false, check: check)
    }

    /// A count such as `interval` or `maxPeriods`: a whole number from 1 to 9999, or -1 (unlimited) where allowed.
    static func checkCount(
        _ value: Value?, _ path: String, allowsUnlimited: Bool, required: Bool, check: PlacetoPayFieldCheck
    ) throws(PlacetoPayFailure) {
        guard let value, value != .null else {
            if required { throw check.fail("The \(path) field is required") }
            return
        }
        guard let count = value.intValue, (1...9999).contains(count) || (allowsUnlimited && count == -1) else {
            throw check.fail(
                "The \(path) field must be a whole number from 1 to 9999\(allowsUnlimited ? " or -1" : ""), got \(Self.describe(value))")
        }
    }

    /// `ipAddress` (≤ 46 characters) must be an IPv4 or IPv6 address.
    static func checkIPAddress(_ text: String?, check: PlacetoPayFieldCheck) throws(PlacetoPayFailure) {
        guard let text, !Self.isIPv4(text), !Self.isIPv6(text) else { return }
        throw check.fail("The ipAddress field must be an IPv4 or IPv6 address, got \(Self.quoted(text))")
    }

    /// Tax kinds of OpenAPI `Taxes`.
    static let taxKinds: Set<String> = [
        "valueAddedTax", "exciseDuty", "ice", "airportTax", "stateTax", "reducedStateTax", "municipalTax",
    ]
    /// Detail kinds of OpenAPI `Details`.
    static let detailKinds: Set<String> = [
        "discount", "additional", "vatDevolutionBase", "shipping", "handlingFee", "insurance", "giftWrap", "subtotal",
        "fee", "tip", "airline", "interests",
    ]

    /// Active ISO 4217 alphabetic codes (OpenAPI `Amount.currency`: "ISO 4217 alpha code").
    static let currencies: Set<String> = Set(
        ("AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD "
            + "CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP "
            + "GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF "
            + "KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR "
            + "MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK "
            + "SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI "
            + "UYU UYW UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL").split(separator: " ").map(String.init))

    /// `local@domain.tld`, without spaces.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    /// Dotted-quad IPv4.
    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part)! <= 255
            }
    }

    /// IPv6 in its textual forms (hex groups, one `::`, an optional trailing IPv4).
    static func isIPv6(_ text: String) -> Bool {
        guard text.contains(":"), text.count <= 45 else { return false }
        var groups = text.components(separatedBy: ":")
        var limit = 8
        if let last = groups.last, last.contains(".") {
            guard Self.isIPv4(last) else { return false }
            groups.removeLast()
            limit = 6
        }
        let compressions = text.components(separatedBy: "::").count - 1
        guard compressions <= 1 else { return false }
        let nonEmpty = groups.filter { !$0.isEmpty }
        guard nonEmpty.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(\.isHexDigit) }) else { return false }
        return compressions == 1 ? nonEmpty.count < limit : nonEmpty.count == limit && groups.count == limit
    }
}
