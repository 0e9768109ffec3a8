/// The card network of a payment attempt, with the values PlacetoPay shows for it in a transaction (§1.5).
enum PlacetoPayCardBrand: Sendable, Equatable {
    /// Visa.
    case visa
    /// Mastercard.
    case master
    /// American Express.
    case amex
    /// Diners Club.
    case diners
    /// A number of no known network (only possible for cards outside the test table).
    case other

    /// The brand of `number` (digits only), from its leading digits.
    init(number: String) {
        let digits = Array(number.utf8).map { Int($0) - 48 }
        func prefix(_ count: Int) -> Int {
            digits.prefix(count).reduce(0) { $0 * 10 + $1 }
        }
        switch true {
        case digits.first == 4:
            self = .visa
        case (51...55).contains(prefix(2)) || (2221...2720).contains(prefix(4)):
            self = .master
        case [34, 37].contains(prefix(2)):
            self = .amex
        case [30, 36, 38, 39].contains(prefix(2)):
            self = .diners
        default:
            self = .other
        }
    }

    /// `paymentMethod`, e.g. `visa` (§1.5).
    var paymentMethod: String {
        switch self {
        case .visa: "visa"
        case .master: "master"
        case .amex: "amex"
        case .diners: "diners"
        case .other: "card"
        }
    }

    /// `paymentMethodName`, e.g. `Visa`.
    var paymentMethodName: String {
        switch self {
        case .visa: "Visa"
        case .master: "Mastercard"
        case .amex: "American Express"
        case .diners: "Diners Club"
        case .other: "Card"
        }
    }

    /// `franchise` (≤ 5 characters, e.g. `CR_VS`, §1.5).
    var franchise: String {
        switch self {
        case .visa: "CR_VS"
        case .master: "RM_MC"
        case .amex: "CR_AM"
        case .diners: "CR_DN"
        case .other: "CR_XX"
        }
    }
}
