import Foundation
import PayCheckCore
import HTTPTypes

/// A `POST /__paycheck/placetopay/payer/pay` body: the suite acting as the payer on the checkout page.
///
/// `{"requestId": N, "card": "4110…", "expiry": "12/30"?, "cvv": "123"?, "otp": "12345"?, "amount": number?}`.
struct PlacetoPayPayerAttempt: Sendable {
    /// The members the body may have.
    static let members = ["requestId", "card", "expiry", "cvv", "otp", "amount"]

    /// The session paid.
    var requestId: Int
    /// The card number, digits only (spaces and dashes removed); never stored beyond the last four digits.
    var cardNumber: String
    /// The expiry typed, if any.
    var expiry: PlacetoPayCard.Expiry?
    /// The CVV typed, if any.
    var cvv: String?
    /// The 3-D Secure OTP typed, if any.
    var otp: String?
    /// The amount to pay: only for a partial payment of an `allowPartial` session.
    var amount: Double?

    /// Parses a control body.
    /// - Throws: ``MockHTTPError`` (400) naming the member that is missing or malformed.
    init(json: [String: Value]) throws(MockHTTPError) {
        try PlacetoPayPayerAttempt.rejectUnknown(json, allowed: Self.members)
        self.requestId = try Self.requestId(json)
        guard let card = json["card"].flatMap(Self.digitsText) else {
            throw MockHTTPError(
                .badRequest, "'card' is required: the card number as a string, e.g. \"4110760000000081\"")
        }
        let digits = card.filter { $0 != " " && $0 != "-" }
        guard (12...19).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw MockHTTPError(.badRequest, "'card' must be 12 to 19 digits, got \(MockHTTPError.quoted(card))")
        }
        self.cardNumber = digits
        if let value = json["expiry"], value != .null {
            guard let text = value.stringValue, let expiry = PlacetoPayCard.parseExpiry(text) else {
                throw MockHTTPError(
                    .badRequest,
                    "'expiry' must be \"MM/YY\" or \"MM/YYYY\", got \(MockHTTPError.quoted(value.displayText))")
            }
            self.expiry = expiry
        }
        if let value = json["cvv"], value != .null {
            guard let text = Self.digitsText(value), (3...4).contains(text.count),
                text.allSatisfy({ $0.isASCII && $0.isNumber })
            else {
                throw MockHTTPError(
                    .badRequest,
                    "'cvv' must be a string of 3 or 4 digits, got \(MockHTTPError.quoted(value.displayText))")
            }
            self.cvv = text
        }
        if let value = json["otp"], value != .null {
            guard let text = Self.digitsText(value) else {
                throw MockHTTPError(
                    .badRequest,
                    "'otp' must be a string, e.g. \"12345\", got \(MockHTTPError.quoted(value.displayText))")
            }
            self.otp = text
        }
        if let value = json["amount"], value != .null {
            let number: Double? =
                switch value {
                case .int, .double: value.number
                case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
                default: nil
                }
            guard let amount = number, amount > 0, amount.isFinite else {
                throw MockHTTPError(
                    .badRequest,
                    "'amount' must be a number greater than 0, got \(MockHTTPError.quoted(value.displayText))")
            }
            self.amount = amount
        }
    }

    /// A string member as is, or a whole number as its decimal digits: YAML suites write card numbers, CVVs and
    /// OTPs unquoted, and the test cards (at most 16 digits) are exact as JSON numbers.
    private static func digitsText(_ value: Value) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number) where number >= 0 && number < 10_000_000_000_000_000:
            return String(number)
        case .double(let number) where number >= 0 && number.rounded() == number && number < 1e16:
            return String(Int(number))
        default: return nil
        }
    }

    /// The `requestId` member: an integer, or a string of digits.
    static func requestId(_ json: [String: Value]) throws(MockHTTPError) -> Int {
        guard let value = json["requestId"] else {
            throw MockHTTPError(.badRequest, "'requestId' is required: the session's requestId")
        }
        if let id = value.wholeNumber { return id }
        if let text = value.stringValue, let id = Int(text), id >= 0 { return id }
        throw MockHTTPError(
            .badRequest, "'requestId' must be an integer, got \(MockHTTPError.quoted(value.displayText))")
    }

    /// Fails with a 400 naming the first member of `json` that is not in `allowed`.
    static func rejectUnknown(_ json: [String: Value], allowed: [String]) throws(MockHTTPError) {
        guard let unknown = json.keys.sorted().first(where: { !allowed.contains($0) }) else { return }
        throw MockHTTPError(
            .badRequest,
            "unknown member \(MockHTTPError.quoted(unknown)); expected one of \(allowed.joined(separator: ", "))")
    }
}
