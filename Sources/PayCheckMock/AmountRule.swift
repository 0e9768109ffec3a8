import Foundation
import PayCheckCore

/// The limits a provider puts on a money amount — sign, zero, digits before and after the point — and the check of
/// an amount as the client wrote it. Each provider mock turns a ``Violation`` into its own error shape.
///
/// An amount is read from a numeric string as written, or from a JSON number through its shortest round-trip
/// text (`1e+308`, `1e-300`), so the exponent extremes a float parser accepts are measured by their digits.
struct AmountRule: Sendable, Equatable {
    /// Why an amount is refused, in the order the check looks.
    enum Violation: Sendable, Equatable {
        /// Not a number, or a form the provider does not take (an exponent, a sign, a comma…).
        case notANumber
        /// `NaN` or an infinity.
        case notFinite
        /// Below zero.
        case negative
        /// Zero where the provider wants a positive amount.
        case zero
        /// More digits before the point than `maxIntegerDigits`.
        case tooLarge
        /// More decimals than the currency has (`maxFractionDigits`).
        case tooManyDecimals(Int)
        /// Not exactly the currency's decimals (`exactFractionDigits`).
        case wrongDecimals(Int)
    }

    /// The sane default bound where a provider documents none: 12 digits before the point (below a trillion),
    /// far above any real payment and far below the range where a `Double` stops holding cents exactly.
    static let defaultIntegerDigits = 12

    /// Most digits before the point (leading zeros not counted).
    var maxIntegerDigits = AmountRule.defaultIntegerDigits
    /// Most decimals. Trailing zeros are not counted (`10.50` has one) unless ``exactFractionDigits`` is set.
    var maxFractionDigits: Int
    /// The written decimals must be exactly ``maxFractionDigits`` (Mollie's "string with exact decimals").
    var exactFractionDigits = false
    /// Whether `0` is an amount (a zero-amount card verification, a zero tax line).
    var allowsZero = false
    /// Whether an exponent (`1e3`) or a leading `+` is read; a plain-decimal provider sets it off.
    var allowsExponent = true

    /// Checks a JSON value: a number, or a string holding a decimal. Other types are ``Violation/notANumber``.
    func check(_ value: Value) -> Violation? {
        switch value {
        case .int(let number): return self.check(text: String(number), isJSONNumber: true)
        case .double(let number):
            guard number.isFinite else { return .notFinite }
            return self.check(text: String(number), isJSONNumber: true)
        case .string(let text): return self.check(text: text)
        default: return .notANumber
        }
    }

    /// Checks an amount as written; a JSON number's text may carry an exponent the client never wrote.
    func check(text: String, isJSONNumber: Bool = false) -> Violation? {
        let lowered = text.lowercased()
        if ["nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"].contains(lowered) { return .notFinite }
        guard let decimal = DecimalText(text), self.allowsExponent || isJSONNumber || (!decimal.hasExponent && !decimal.hasPlus) else {
            return .notANumber
        }
        if decimal.isNegative && !decimal.isZero { return .negative }
        if decimal.isZero && !self.allowsZero { return .zero }
        if decimal.integerDigits > self.maxIntegerDigits { return .tooLarge }
        if self.exactFractionDigits {
            guard !decimal.hasExponent, decimal.writtenFractionDigits == self.maxFractionDigits else {
                return .wrongDecimals(self.maxFractionDigits)
            }
        } else if decimal.significantFractionDigits > self.maxFractionDigits {
            return .tooManyDecimals(self.maxFractionDigits)
        }
        return nil
    }

    /// The decimals of `currency` in ISO 4217 (the minor unit): 0 for CLP, JPY…, 3 for BHD, KWD…, 4 for CLF and
    /// UYW, 2 otherwise.
    static func isoDecimals(_ currency: String) -> Int {
        if Self.noDecimals.contains(currency) { return 0 }
        if Self.threeDecimals.contains(currency) { return 3 }
        if currency == "CLF" || currency == "UYW" { return 4 }
        return 2
    }

    /// ISO 4217 currencies without a minor unit.
    static let noDecimals: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF",
        "XPF",
    ]
    /// ISO 4217 currencies with three decimals.
    static let threeDecimals: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
}

/// A decimal number as written — `[+-]digits[.digits][e[+-]digits]` — measured without expanding its exponent.
struct DecimalText: Sendable, Equatable {
    /// A leading `-`.
    var isNegative: Bool
    /// A leading `+`.
    var hasPlus: Bool
    /// An `e`/`E` exponent.
    var hasExponent: Bool
    /// All digits are zero.
    var isZero: Bool
    /// Digits before the point once the exponent is applied, leading zeros not counted (`0.5` has 0).
    var integerDigits: Int
    /// Decimals once the exponent is applied, trailing zeros not counted (`1e-300` has 300, `10.50` has 1).
    var significantFractionDigits: Int
    /// Decimals as written (`10.50` has 2).
    var writtenFractionDigits: Int

    /// Reads `text`; `nil` when it is not a plain or exponent-notation decimal with a digit on each side of the point
    /// (no `.5`, no `5.`, no spaces, no thousands separators).
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        guard !bytes.isEmpty else { return nil }
        self.isNegative = bytes.first == UInt8(ascii: "-")
        self.hasPlus = bytes.first == UInt8(ascii: "+")
        if self.isNegative || self.hasPlus { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let mantissaEnd = bytes.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } ?? bytes.endIndex
        let mantissa = bytes[..<mantissaEnd]
        let point = mantissa.firstIndex(of: UInt8(ascii: "."))
        let whole = mantissa[..<(point ?? mantissa.endIndex)]
        let fraction = point.map { mantissa[mantissa.index(after: $0)...] } ?? []
        guard !whole.isEmpty, whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit), point == nil || !fraction.isEmpty
        else { return nil }
        var exponent = 0
        self.hasExponent = mantissaEnd != bytes.endIndex
        if self.hasExponent {
            var digits = bytes[bytes.index(after: mantissaEnd)...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
            // Ten digits of exponent already mean more than any amount can have: cap rather than overflow.
            guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
            let magnitude = digits.count > 9 ? 1_000_000_000 : Int(String(decoding: digits, as: UTF8.self)) ?? 0
            exponent = negative ? -magnitude : magnitude
        }
        self.writtenFractionDigits = fraction.count
        // The significant digits d1…dn of the mantissa and where the point falls among them, then shifted.
        let digits = Array(whole) + Array(fraction)
        guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }) else {
            self.isZero = true
            self.integerDigits = 0
            self.significantFractionDigits = 0
            return
        }
        self.isZero = false
        let last = digits.lastIndex { $0 != UInt8(ascii: "0") } ?? first
        let pointPosition = whole.count + exponent  // digits before the point, counted from the mantissa's start
        self.integerDigits = max(0, pointPosition - first)
        self.significantFractionDigits = max(0, last + 1 - pointPosition)
    }
}
