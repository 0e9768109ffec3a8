import Foundation
import PayCheckCore
import PayCheckProviders

/// One payment attempt of a session: an item of the query's `payment[]` (providers.md §1.5 Transaction object).
struct PlacetoPayTransaction: Sendable {
    /// When a transaction pending at the bank resolves, and how.
    struct Resolution: Sendable, Equatable {
        /// The mock time at which it resolves.
        var at: Date
        /// Whether it is approved (else rejected with `05`).
        var approves: Bool
    }

    /// Amounts closer than this are equal (partial payments and partial refunds).
    static let amountTolerance = 0.000_001

    /// PlacetoPay's reference of the transaction, `internalReference`.
    let internalReference: Int
    /// The merchant's `payment.reference`.
    let reference: String
    /// The card paid with.
    let card: PlacetoPayCard
    /// The currency of the amount.
    let currency: String
    /// The amount charged (changed only by `reauthorization` of a `checkin` pre-authorization).
    var total: Double
    /// The transaction status.
    var status: PlacetoPayStatus
    /// For a transaction pending at the bank: when and how it resolves; `nil` otherwise.
    var resolution: Resolution?
    /// The amount refunded so far by `reverse` (§1.7).
    var refundedAmount = 0.0
    /// Whether a `checkin` pre-authorization was captured with `checkout` (§1.7), or is itself a capture.
    var captured = false
    /// Whether a `reauthorization` replaced this pre-authorization with a new transaction (§1.7).
    var superseded = false
    /// Whether it was `PENDING_CONFIRMATION` when its session expired; `confirm`/`cancel` then fail with
    /// `transaction_request_error` (§1.3).
    var voidedByExpiry = false

    /// Whether the transaction is approved.
    var isApproved: Bool { self.status.status == PlacetoPayStatus.Name.approved }
    /// Whether it is pending at the bank.
    var isBankPending: Bool { self.status.status == PlacetoPayStatus.Name.pending }
    /// Whether it awaits the merchant's `confirm` or `cancel`.
    var isAwaitingConfirmation: Bool { self.status.status == PlacetoPayStatus.Name.pendingConfirmation }
    /// Whether it is still in progress (pending at the bank or awaiting confirmation).
    var isInProgress: Bool { self.isBankPending || self.isAwaitingConfirmation }
    /// The amount not refunded yet.
    var refundableAmount: Double { max(0, self.total - self.refundedAmount) }
    /// `refunded` (§1.5): true once the whole amount has been refunded.
    var refunded: Bool { self.refundedAmount > 0 && self.refundableAmount <= Self.amountTolerance }

    /// `authorization`: six digits derived from `internalReference` once approved, `000000` otherwise (§1.5).
    var authorization: String {
        guard self.isApproved else { return "000000" }
        return String(100_000 + (self.internalReference * 7919) % 900_000)
    }

    /// The transaction as it appears in `payment[]` and in action responses, with messages in English.
    var json: Value { self.json(locale: nil) }

    /// The transaction as it appears in `payment[]` and in action responses (OpenAPI `Transaction`), messages in
    /// the language of `locale`. `processorFields` carries the keywords of the OpenAPI examples and the
    /// processor-fields page (merchantCode, terminalNumber, credit, totalAmount, expiration, lastDigits, id, b24);
    /// `bin` is left out on purpose: PayCheck never writes card digits beyond the last four. `discount`,
    /// `dispersion`, `agreement` and `agreementType` are `null`: the mock has no discounts or dispersion.
    func json(locale: String?) -> Value {
        let amount = Value.object([
            "currency": .string(self.currency), "total": Value(number: self.total),
        ])
        func field(_ keyword: String, _ value: Value) -> Value {
            .object(["keyword": .string(keyword), "value": value, "displayOn": .string("none")])
        }
        var processorFields = [
            field("merchantCode", .string(Self.merchantCode)),
            field("terminalNumber", .string(Self.terminalNumber)),
            field(
                "credit",
                .object([
                    "code": .string("0"), "type": .string("00"), "groupCode": .string("C"), "installments": .int(0),
                ])),
            field("totalAmount", Value(number: self.total)),
        ]
        if let expiry = self.card.expiry {
            let month = expiry.month < 10 ? "0\(expiry.month)" : "\(expiry.month)"
            processorFields.append(field("expiration", .string(month + String(String(expiry.year).suffix(2)))))
        }
        processorFields.append(field("lastDigits", .string(self.card.lastDigits)))
        processorFields.append(field("id", .string(self.processorId)))
        processorFields.append(field("b24", .string(self.status.reason)))
        return .object([
            "status": self.status.json(locale: locale),
            "internalReference": .int(self.internalReference),
            "reference": .string(self.reference),
            "paymentMethod": .string(self.card.brand.paymentMethod),
            "paymentMethodName": .string(self.card.brand.paymentMethodName),
            "issuerName": .string("PayCheck Test Bank"),
            "amount": .object(["from": amount, "to": amount, "factor": .int(1)]),
            "authorization": .string(self.authorization),
            "receipt": .string(String(800_000_000_000 + self.internalReference)),
            "franchise": .string(self.card.brand.franchise),
            "refunded": .bool(self.refunded),
            "processorFields": .array(processorFields),
            "discount": .null,
            "dispersion": .null,
            "agreement": .null,
            "agreementType": .null,
        ])
    }

    /// The mock's merchant code and terminal in `processorFields` (values are the processor's; these are fixed).
    static let merchantCode = "0010203040"
    static let terminalNumber = "PAYCHK01"

    /// `processorFields.id`: 32 hex characters derived from `internalReference`.
    var processorId: String {
        var state = UInt64(truncatingIfNeeded: self.internalReference) &* 0x9E37_79B9_7F4A_7C15
        var text = ""
        for _ in 0..<2 {
            state = (state ^ (state >> 31)) &* 0xBF58_476D_1CE4_E5B9
            let word = String(state, radix: 16)
            text += String(repeating: "0", count: 16 - word.count) + word
        }
        return text
    }
}
