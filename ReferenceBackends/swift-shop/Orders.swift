// The shop's orders, kept in memory, and the amounts it accepts.
import Foundation
import Synchronization

/// An order's status. `paid`, `failed`, `canceled` and `expired` are final and never change.
enum OrderStatus: String, Sendable {
    /// Created; the shopper has not paid yet.
    case open
    /// A payment is in progress.
    case pending
    /// Paid, and fulfilled once.
    case paid
    /// The payment failed.
    case failed
    /// The shopper or the merchant canceled it.
    case canceled
    /// The checkout was abandoned and expired.
    case expired

    /// Whether the status never changes again.
    var isFinal: Bool {
        switch self {
        case .open, .pending: false
        case .paid, .failed, .canceled, .expired: true
        }
    }
}

/// What moved an order: a query of the provider (`GET /orders/<id>`), the shopper's return, or a notification.
enum UpdateSource: String, Sendable {
    /// The provider was asked while the order was read.
    case query
    /// The shopper came back from the checkout.
    case `return`
    /// A Mollie webhook call or a PlacetoPay notification.
    case notification
}

/// One order of the shop.
struct Order: Sendable {
    /// `ord_1`, `ord_2`, …
    let id: String
    /// Who takes the payment.
    let provider: PaymentProvider
    /// The amount as the shopper's request gave it, e.g. `"10.00"`.
    let amount: String
    /// The ISO 4217 currency code.
    let currency: String
    /// The description, trimmed.
    let description: String
    /// Mollie's `tr_…`, or the PlacetoPay requestId as a string; `nil` until the payment is created.
    var paymentID: String?
    /// Where the shopper pays, as the provider answered it (usually a string).
    var checkoutURL: JSONValue = .null
    /// The current status.
    var status: OrderStatus = .open
    /// How often the order was fulfilled: 1 once paid (more only with `SHOP_BUG=double-fulfil`).
    var fulfilments = 0
    /// Yuno: the payment created from the SDK's token (`paymentID` is then the checkout session).
    var yunoPaymentID: String?

    /// This order with another amount (the payment of `SHOP_BUG=other-amount`).
    func withAmount(_ amount: String) -> Order {
        var order = Order(id: self.id, provider: self.provider, amount: amount, currency: self.currency, description: self.description)
        order.paymentID = self.paymentID
        return order
    }

    /// The order as `GET /orders/<id>` answers it.
    var json: JSONValue {
        [
            "id": .string(self.id), "provider": .string(self.provider.rawValue),
            "paymentId": self.paymentID.map(JSONValue.string) ?? .null, "status": .string(self.status.rawValue),
            "fulfilments": .int(self.fulfilments),
        ]
    }
}

/// The orders in memory, behind one lock; every status change goes through ``apply(_:to:source:)``.
final class OrderStore: Sendable {
    /// Identifies a payment at a provider.
    private struct PaymentKey: Hashable, Sendable {
        /// The provider.
        let provider: PaymentProvider
        /// Its payment id.
        let paymentID: String
    }

    /// Everything the lock guards.
    private struct State: Sendable {
        /// The orders by id.
        var orders: [String: Order] = [:]
        /// The order id for each payment.
        var byPayment: [PaymentKey: String] = [:]
        /// The last order number handed out.
        var counter = 0
    }

    /// The orders.
    private let state = Mutex(State())
    /// The seeded mistake, if any (`double-fulfil` is made here).
    private let bug: ShopBug?

    /// Creates an empty store that makes `bug`, if it is `.doubleFulfil`.
    init(bug: ShopBug?) {
        self.bug = bug
    }

    /// A new order id: `ord_1`, `ord_2`, … (also used up when creating the payment then fails).
    func newID() -> String {
        self.state.withLock { state in
            state.counter += 1
            return "ord_\(state.counter)"
        }
    }

    /// Stores `order`, findable by its id and by its payment.
    func add(_ order: Order) {
        self.state.withLock { state in
            state.orders[order.id] = order
            if let payment = order.paymentID {
                state.byPayment[PaymentKey(provider: order.provider, paymentID: payment)] = order.id
            }
        }
    }

    /// Links Yuno payment `paymentID` to order `id`, which becomes findable by it.
    func attach(yunoPayment paymentID: String, to id: String) {
        self.state.withLock { state in
            guard state.orders[id] != nil else { return }
            state.orders[id]?.yunoPaymentID = paymentID
            state.byPayment[PaymentKey(provider: .yuno, paymentID: paymentID)] = id
        }
    }

    /// The order `id`, if there is one.
    func order(_ id: String) -> Order? {
        self.state.withLock { $0.orders[id] }
    }

    /// The order paid through `paymentID` at `provider`, if there is one.
    func order(provider: PaymentProvider, paymentID: String) -> Order? {
        self.state.withLock { state in
            state.byPayment[PaymentKey(provider: provider, paymentID: paymentID)].flatMap { state.orders[$0] }
        }
    }

    /// Moves order `id` to `status` under the lock, and fulfils it on its first transition to `paid`; a final order
    /// never changes again (unless `overridingFinal`, only with `SHOP_BUG=paid-moved-back`). Answers the order as it
    /// is afterwards.
    @discardableResult
    func apply(_ status: OrderStatus, to id: String, source: UpdateSource, overridingFinal: Bool = false) -> Order? {
        // SHOP_BUG=decline-paid: a failed payment is mapped to paid; SHOP_BUG=pending-paid: so is a pending one.
        let status: OrderStatus =
            switch (self.bug, status) {
            case (.declinePaid, .failed), (.pendingPaid, .pending): .paid
            default: status
            }
        // SHOP_BUG=ignore-expiry: an expired payment is never noticed.
        if self.bug == .ignoreExpiry && status == .expired { return self.order(id) }
        let (order, message) = self.state.withLock { state -> (Order?, String?) in
            guard var order = state.orders[id] else { return (nil, nil) }
            let previous = order.status
            var message: String?
            if status == .paid && previous == .paid {
                // SHOP_BUG=double-fulfil: every paid notification fulfils again.
                guard self.bug == .doubleFulfil && source == .notification else { return (order, nil) }
                order.fulfilments += 1
                message = "order \(order.id) fulfilled again (fulfilments=\(order.fulfilments)) [bug]"
            } else {
                guard (overridingFinal || !previous.isFinal) && previous != status else { return (order, nil) }
                order.status = status
                if status == .paid {
                    order.fulfilments += 1
                    message = "order \(order.id) paid; fulfilled (fulfilments=\(order.fulfilments))"
                } else {
                    message = "order \(order.id): \(previous.rawValue) -> \(status.rawValue) (\(source.rawValue))"
                }
            }
            state.orders[id] = order
            return (order, message)
        }
        if let message { log(message) }
        return order
    }
}

// MARK: - Amounts

/// An amount of major units that fits its currency, e.g. `10.00` EUR or `1500` JPY.
struct Amount: Sendable {
    /// ISO 4217 currencies without minor units (the ones a shop is likely to see).
    static let zeroDecimalISO: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF",
        "XPF",
    ]
    /// The currencies Mollie writes without decimals (the mock's MollieFormat.decimals).
    static let zeroDecimalMollie: Set<String> = ["JPY", "ISK", "HUF"]

    /// The integer part without leading zeros (`"0"` at least).
    let units: String
    /// The fraction with exactly the currency's decimals (empty for none).
    let fraction: String

    /// Whether `text` looks like an amount: 1–12 digits, optionally a point and 1–4 digits.
    static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard (1...12).contains(parts[0].count), isDigits(parts[0]) else { return false }
        return parts.count == 1 || ((1...4).contains(parts[1].count) && isDigits(parts[1]))
    }

    /// Reads `text` (well formed, see ``isWellFormed(_:)``) for `currency`, which has no decimals when it is in
    /// `zeroDecimal` and two otherwise.
    /// - Throws: ``AmountError`` when it is not greater than 0 or has more decimals than the currency.
    init(_ text: String, currency: String, zeroDecimal: Set<String>) throws {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0].drop { $0 == "0" }
        var fraction = parts.count > 1 ? parts[1] : ""
        while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
        guard !integer.isEmpty || !fraction.isEmpty else { throw AmountError(description: "amount must be greater than 0") }
        let decimals = zeroDecimal.contains(currency) ? 0 : 2
        guard fraction.count <= decimals else {
            throw AmountError(description: "amount has more than \(decimals) decimals for \(currency)")
        }
        self.units = integer.isEmpty ? "0" : String(integer)
        self.fraction = String(fraction) + String(repeating: "0", count: decimals - fraction.count)
    }

    /// `text` (well formed) with one more major unit: `"10.00"` → `"11.00"`, `"1500"` → `"1501"`.
    static func oneUnitMore(_ text: String) -> String {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let units = (Int(parts[0]) ?? 0) + 1
        return parts.count > 1 ? "\(units).\(parts[1])" : "\(units)"
    }

    /// `text` (well formed) without its minor units: `"10.50"` → `"10.00"`, `"1500"` → `"1500"`.
    static func majorUnitsOnly(_ text: String) -> String {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count > 1 ? "\(parts[0]).\(String(repeating: "0", count: parts[1].count))" : text
    }

    /// The amount with the currency's decimals, as Mollie's `value` wants it: `"10.00"`, `"1500"`.
    var text: String {
        self.fraction.isEmpty ? self.units : "\(self.units).\(self.fraction)"
    }

    /// The amount as a JSON number, as PlacetoPay's `total` wants it: an integer when it has no cents.
    var number: JSONValue {
        if self.fraction.allSatisfy({ $0 == "0" }), let units = Int(self.units) { return .int(units) }
        return .double(Double(self.text) ?? 0)
    }
}

/// An amount the shop does not accept; its description is the 400 answer's `error`.
struct AmountError: Error, CustomStringConvertible {
    /// What is wrong.
    let description: String
}
