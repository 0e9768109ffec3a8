import Foundation
import PayCheckCore

/// A tokenized card: the query's `subscription` object (providers.md §1.5) and the card behind a token that
/// `/api/collect` can charge (§1.8).
struct PlacetoPaySubscription: Sendable {
    /// The token, 64 lowercase hex characters (as in the SDK fixtures).
    var token: String
    /// The sub-token, 16 digits.
    var subtoken: String
    /// The site that owns the token; other sites cannot use it.
    var login: String
    /// The card, with the behaviour it keeps for charges with stored credentials.
    var card: PlacetoPayCard
    /// The tokenization status (`OK`/`00`).
    var status: PlacetoPayStatus

    /// `validUntil`: the last day of the card's expiry month, `yyyy-MM-dd`; four years ahead of `date` when the
    /// payer typed no expiry (choice).
    func validUntil(from date: Date) -> String {
        let fallbackYear = Int(PlacetoPayStatus.format(date).prefix(4)).map { $0 + 4 } ?? 2030
        let expiry = self.card.expiry ?? PlacetoPayCard.Expiry(month: 12, year: fallbackYear)
        let lastDay: Int
        switch expiry.month {
        case 2: lastDay = (expiry.year % 4 == 0 && expiry.year % 100 != 0) || expiry.year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: lastDay = 30
        default: lastDay = 31
        }
        let month = expiry.month < 10 ? "0\(expiry.month)" : "\(expiry.month)"
        return "\(expiry.year)-\(month)-\(lastDay)"
    }

    /// The `subscription` object: `{type: "token", status, instrument: [NameValuePair…]}` (§1.5).
    var json: Value {
        func pair(_ keyword: String, _ value: Value) -> Value {
            .object(["keyword": .string(keyword), "value": value, "displayOn": .string("none")])
        }
        return .object([
            "type": .string("token"),
            "status": self.status.json,
            "instrument": .array([
                pair("token", .string(self.token)),
                pair("subtoken", .string(self.subtoken)),
                pair("franchise", .string(self.card.brand.paymentMethod)),
                pair("franchiseName", .string(self.card.brand.paymentMethodName)),
                pair("issuerName", .string("PayCheck Test Bank")),
                pair("lastDigits", .string(self.card.lastDigits)),
                pair("validUntil", .string(self.validUntil(from: self.status.date))),
                pair("installments", .null),  // OpenAPI subscription examples show `null`
            ]),
        ])
    }
}
