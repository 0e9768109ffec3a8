import Foundation
import PayCheckCore

/// The one check of every PlacetoPay amount (`payment.amount.total`, `taxes[]`/`details[]` `amount` and `base`, the
/// `amount.total` of a transaction action). providers.md §1.4 gives only "number, major units"; the limits are the
/// mock's choices, listed in docs/providers/placetopay.md: a finite number or numeric string, above zero (a tax or
/// detail line may be zero), at most the site's `maxAmountDigits` digits before the point (12 by default), at most
/// the currency's ISO 4217 decimals (COP 2, CLP 0, …). `1e308` and `1e-300` fail the digits.
extension PlacetoPaySessionRequest {
    /// What is wrong with the amount `value` at `path` in `currency`, as a message; `nil` when it is valid.
    static func amountProblem(
        _ value: Value, _ path: String, currency: String, maxDigits: Int, allowsZero: Bool = false
    ) -> String? {
        let decimals = AmountRule.isoDecimals(currency)
        let rule = AmountRule(maxIntegerDigits: maxDigits, maxFractionDigits: decimals, allowsZero: allowsZero)
        guard let violation = rule.check(value) else { return nil }
        let got = "got \(Self.describe(value))"
        switch violation {
        case .notANumber, .negative, .zero:
            return allowsZero
                ? "The \(path) field must be a number of 0 or more, \(got)"
                : "The \(path) field must be a number greater than 0, \(got)"
        case .notFinite:
            return "The \(path) field must be a finite number, \(got)"
        case .tooLarge:
            return "The \(path) field must have at most \(maxDigits) digits before the decimal point, \(got)"
        case .tooManyDecimals, .wrongDecimals:
            return "The \(path) field must have at most \(decimals) decimals in \(currency), \(got)"
        }
    }
}
