import Foundation
import PayCheckCore
import PayCheckProviders

/// Everything one Mollie mock remembers (providers.md §4), behind the mutex of ``MollieStore``.
struct MollieState: Sendable {
    /// A payment method of the test account (§4.5, §4.12 2.7): limits in EUR, iDEAL with issuers.
    struct Method: Sendable {
        var id: String
        var description: String
        var minimum: Decimal
        var maximum: Decimal
        var available = true
    }

    static let defaultMethods = [
        Method(id: "ideal", description: "iDEAL", minimum: Decimal(string: "0.01")!, maximum: 50000),
        Method(id: "creditcard", description: "Card", minimum: Decimal(string: "0.01")!, maximum: 2000),
        Method(id: "bancontact", description: "Bancontact", minimum: Decimal(string: "0.02")!, maximum: 50000),
        Method(id: "banktransfer", description: "Bank transfer", minimum: Decimal(string: "0.01")!, maximum: 1_000_000),
        Method(id: "paypal", description: "PayPal", minimum: Decimal(string: "0.01")!, maximum: 8000),
    ]
    static let issuers = [
        ("ideal_ABNANL2A", "ABN AMRO"), ("ideal_ASNBNL21", "ASN Bank"), ("ideal_BUNQNL2A", "bunq"),
        ("ideal_INGBNL2A", "ING"), ("ideal_KNABNL2H", "Knab"), ("ideal_RABONL2U", "Rabobank"),
    ]

    var payments: [String: MolliePayment] = [:]
    /// Payment ids, oldest first (lists are newest first).
    var order: [String] = []
    var methods = MollieState.defaultMethods
    var webhookLog: [Value] = []
    let random: @Sendable () -> UInt64

    init(random: @escaping @Sendable () -> UInt64) { self.random = random }

    func randomId(_ prefix: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return prefix + String((0..<10).map { _ in alphabet[Int(random() % UInt64(alphabet.count))] })
    }

    func method(_ id: String) -> Method? { methods.first { $0.id == id } }

    /// Validates and stores a new payment (§4.2, §4.12 2.3): 422 naming the field for a missing description or
    /// amount, an amount value that is not a string with the currency's decimals, an unknown currency, an amount above
    /// the method's maximum; 503 while the method's platform is down.
    mutating func create(_ body: [String: Value], now: Date) throws(MollieFailure) -> MolliePayment {
        guard let description = body["description"]?.stringValue, !description.isEmpty else {
            throw .invalid("The 'description' field is missing", field: "description")
        }
        guard let amount = body["amount"]?.objectValue else { throw .invalid("The amount is required for payments", field: "amount") }
        let (value, currency) = try Self.amount(amount)
        var method: String?
        if let given = body["method"], given != .null {
            guard let id = given.stringValue, let known = self.method(id) else {
                throw .invalid("The payment method is invalid", field: "method")
            }
            guard known.available else { throw MollieFailure(code: 503, detail: "Payment platform for this payment method temporarily not available") }
            guard value <= known.maximum else { throw .invalid("The amount is higher than the maximum", field: "amount") }
            guard value >= known.minimum else { throw .invalid("The amount is lower than the minimum", field: "amount") }
            method = id
        } else if let ceiling = methods.map(\.maximum).max(), value > ceiling {
            // No method chosen: above every method's maximum no method can take it. Mollie's own example of this
            // 422 is 1000000000.00 EUR without a method (§4.8, §4.12 2.3; handling-errors, mollie-api-python's
            // payment_rejected.json).
            throw .invalid("The amount is higher than the maximum", field: "amount")
        }
        let redirect = body["redirectUrl"]?.stringValue
        guard redirect != nil else { throw .invalid("The redirect URL is missing", field: "redirectUrl") }
        let payment = MolliePayment(
            id: randomId("tr_"), createdAt: now, expiresAt: now.addingTimeInterval(15 * 60), currency: currency, value: value,
            description: description, redirectUrl: redirect, cancelUrl: body["cancelUrl"]?.stringValue,
            webhookUrl: body["webhookUrl"]?.stringValue, method: method,
            metadata: body["metadata"] ?? .null, locale: body["locale"]?.stringValue)
        payments[payment.id] = payment
        order.append(payment.id)
        return payment
    }

    /// The currencies Mollie accepts payments in (docs.mollie.com/docs/multicurrency, "Supported currencies"); any
    /// other, such as `XYZ`, is 422 "The amount contains an invalid currency".
    static let currencies: Set<String> = [
        "AED", "AUD", "BGN", "BRL", "CAD", "CHF", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "ILS", "ISK", "JPY", "MXN", "MYR",
        "NOK", "NZD", "PHP", "PLN", "RON", "RUB", "SEK", "SGD", "THB", "TWD", "USD", "ZAR",
    ]

    /// `{currency, value}`: `value` a string with exactly the currency's decimals (§4.2, §4.12 4.10), in a currency
    /// Mollie supports.
    static func amount(_ amount: [String: Value]) throws(MollieFailure) -> (Decimal, String) {
        guard let currency = amount["currency"]?.stringValue, currencies.contains(currency) else {
            throw .invalid("The amount contains an invalid currency", field: "amount.currency")
        }
        return (try Self.amountValue(amount["value"], currency: currency), currency)
    }

    /// The most digits before the point of an amount: Mollie publishes no upper bound beyond its per-method
    /// maximums (§4.12 2.3 "The amount is higher than the maximum"); 12 is the mock's choice (docs/providers/mollie.md).
    static let maxAmountDigits = AmountRule.defaultIntegerDigits

    /// The one check of every Mollie amount value (payments, refunds, the methods filter): a string (§4.2 "string
    /// with exact decimals") of plain digits, above zero, with exactly the currency's decimals (§4.12 4.10: 2, JPY 0),
    /// else 422 "The amount contains an invalid value" on `amount.value`; more than ``maxAmountDigits`` digits
    /// before the point is 422 "The amount is higher than the maximum" on `amount` (§4.12 2.3).
    static func amountValue(_ value: Value?, currency: String) throws(MollieFailure) -> Decimal {
        let rule = AmountRule(
            maxIntegerDigits: Self.maxAmountDigits, maxFractionDigits: MollieFormat.decimals(currency),
            exactFractionDigits: true, allowsExponent: false)
        guard let text = value?.stringValue else {
            throw .invalid("The amount contains an invalid value", field: "amount.value")
        }
        switch rule.check(text: text) {
        case .tooLarge?: throw .invalid("The amount is higher than the maximum", field: "amount")
        case _?: throw .invalid("The amount contains an invalid value", field: "amount.value")
        case nil:
            guard let decimal = Decimal(string: text) else {
                throw .invalid("The amount contains an invalid value", field: "amount.value")
            }
            return decimal
        }
    }

    func payment(_ id: String) throws(MollieFailure) -> MolliePayment {
        guard let payment = payments[id] else { throw MollieFailure(code: 404, detail: "No payment exists with token \(id).") }
        return payment
    }

    /// The transitions of §4.4: open → pending | paid | failed | canceled | expired | authorized;
    /// pending → paid | failed | expired | canceled; authorized → paid | canceled | expired.
    static let transitions: [MolliePaymentStatus: Set<MolliePaymentStatus>] = [
        .open: [.pending, .paid, .failed, .canceled, .expired, .authorized],
        .pending: [.paid, .failed, .expired, .canceled],
        .authorized: [.paid, .canceled, .expired],
    ]

    /// Moves `id` to `status`; returns whether the webhook is called (every status but open/pending, §4.4).
    mutating func transition(_ id: String, to status: MolliePaymentStatus, now: Date) -> (MolliePayment, Bool)? {
        guard var payment = payments[id], Self.transitions[payment.status]?.contains(status) == true else { return nil }
        payment.status = status
        payment.statusChangedAt[status] = now
        payments[id] = payment
        return (payment, ![.open, .pending].contains(status))
    }

    /// `DELETE`: only a cancelable payment (§4.12 2.1); 422 "The payment cannot be cancelled" otherwise.
    mutating func cancel(_ id: String, now: Date) throws(MollieFailure) -> MolliePayment {
        let payment = try self.payment(id)
        guard payment.isCancelable, let (canceled, _) = transition(id, to: .canceled, now: now) else {
            throw .invalid("The payment cannot be cancelled", field: nil)
        }
        return canceled
    }

    /// `PATCH` (§4.12 2.1): on a final payment 422 naming `redirectUrl`.
    mutating func update(_ id: String, _ body: [String: Value]) throws(MollieFailure) -> MolliePayment {
        var payment = try self.payment(id)
        guard !payment.isFinal else {
            throw .invalid("The redirect URL cannot be updated when the payment is finalized", field: "redirectUrl")
        }
        if let value = body["description"]?.stringValue { payment.description = value }
        if let value = body["redirectUrl"]?.stringValue { payment.redirectUrl = value }
        if let value = body["cancelUrl"]?.stringValue { payment.cancelUrl = value }
        if let value = body["webhookUrl"]?.stringValue { payment.webhookUrl = value }
        if let value = body["metadata"] { payment.metadata = value }
        if let value = body["locale"]?.stringValue { payment.locale = value }
        payments[id] = payment
        return payment
    }

    /// A refund of a paid payment (§4.12 2.6): amount required, same currency, at most `amountRemaining`; the same
    /// amount twice within an hour is a duplicate (409).
    mutating func refund(_ id: String, _ body: [String: Value], now: Date) throws(MollieFailure) -> MollieRefund {
        var payment = try self.payment(id)
        guard payment.status == .paid else { throw .invalid("The payment cannot be refunded", field: nil) }
        guard let amount = body["amount"]?.objectValue else { throw .invalid("The amount is required for refunds", field: "amount") }
        let (value, currency) = try Self.amount(amount)
        guard currency == payment.currency else { throw .invalid("The amount contains an invalid currency", field: "amount.currency") }
        guard value <= payment.value - payment.refunded else { throw .invalid("The specified amount cannot be refunded", field: "amount.value") }
        if payment.refunds.contains(where: { $0.value == value && now.timeIntervalSince($0.createdAt) < 3600 }) {
            throw MollieFailure(code: 409, detail: "A duplicate refund has been detected")
        }
        let refund = MollieRefund(
            id: randomId("re_"), paymentId: id, value: value, currency: currency,
            description: body["description"]?.stringValue ?? "", metadata: body["metadata"] ?? .null, createdAt: now)
        payment.refunded += value
        payment.refunds.append(refund)
        payments[id] = payment
        return refund
    }

    /// Cancels refund `refundId` of payment `id` (§4.12 2.6: only a `queued` or `pending` refund, 204); its amount is
    /// refundable again. Unknown: 404; already canceled (or further on): 422.
    mutating func cancelRefund(_ id: String, _ refundId: String) throws(MollieFailure) {
        var payment = try self.payment(id)
        guard let index = payment.refunds.firstIndex(where: { $0.id == refundId }) else {
            throw MollieFailure(code: 404, detail: "No refund exists with token \(refundId).")
        }
        guard ["queued", "pending"].contains(payment.refunds[index].status) else {
            throw .invalid("The refund cannot be canceled", field: nil)
        }
        payment.refunds[index].status = "canceled"
        payment.refunded -= payment.refunds[index].value
        payments[id] = payment
    }

    /// Every refund of every payment, newest first (`GET /v2/refunds`).
    var allRefunds: [MollieRefund] {
        payments.values.flatMap(\.refunds).sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }
}
