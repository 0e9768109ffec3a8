import Foundation

/// What the mock keeps of a card the payer paid with: never the full number, only the last four digits
/// (providers.md §1.5 `processorFields.lastDigits`), the network, the test behaviour and the expiry.
struct PlacetoPayCard: Sendable, Equatable {
    /// The card network.
    var brand: PlacetoPayCardBrand
    /// The last four digits, e.g. `0081`.
    var lastDigits: String
    /// The test-card behaviour (§1.10).
    var behaviour: PlacetoPayTestCard
    /// The expiry the payer typed, if any: month and four-digit year.
    var expiry: Expiry?

    /// A card expiry date.
    struct Expiry: Sendable, Equatable {
        /// 1–12.
        var month: Int
        /// Four-digit year.
        var year: Int

        /// Whether the card is no longer valid at `date`: its expiry month ended before the month of `date`.
        func hasPassed(at date: Date) -> Bool {
            let today = PlacetoPayStatus.format(date)
            guard let year = Int(today.prefix(4)), let month = Int(today.dropFirst(5).prefix(2)) else { return false }
            return (self.year, self.month) < (year, month)
        }
    }

    /// Describes the card `number` (digits only) without keeping it.
    init(number: String, expiry: Expiry?) {
        self.brand = PlacetoPayCardBrand(number: number)
        self.lastDigits = String(number.suffix(4))
        self.behaviour = PlacetoPayTestCard(number: number)
        self.expiry = expiry
    }

    /// The outcome of `attempt` at mock time `now`: a card whose expiry month has passed is rejected with `54`
    /// (choice), otherwise the test-card behaviour decides (§1.10).
    func outcome(_ attempt: PlacetoPayTestCard.Attempt, now: Date) -> PlacetoPayTestCard.Outcome {
        if let expiry = self.expiry, expiry.hasPassed(at: now) {
            return .rejected(reason: PlacetoPayStatus.Reason.expiredCard, message: "Rejected: expired card")
        }
        return self.behaviour.outcome(attempt)
    }

    /// Parses `MM/YY` or `MM/YYYY`; `nil` when the text is neither.
    static func parseExpiry(_ text: String) -> Expiry? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, [2, 4].contains(parts[1].count),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let month = Int(parts[0]), (1...12).contains(month), let year = Int(parts[1])
        else { return nil }
        return Expiry(month: month, year: parts[1].count == 2 ? 2000 + year : year)
    }
}
