import Foundation
import PayCheckCore
import PayCheckProviders
import HTTPTypes

/// Everything one khipu mock remembers; behind the mutex of ``KhipuMock``. Operations are synchronous: the
/// notifications and scheduled reconciliations they cause are handed back to the caller.
struct KhipuState: Sendable {
    /// The developer-mode account (§2.1).
    struct Account: Sendable {
        var receiverId = 985101
        var secret = KhipuProvider().mockCredentials["secret"] ?? ""
        var apiKey = KhipuProvider().mockCredentials["apiKey"] ?? ""
        /// How long khipu verifies a transfer before it is `done` (choice: the docs give no time).
        var conciliationDelay: TimeInterval = 30
        /// khipu retries a notification not answered 200 "for up to two days" (§2.7, §2.12 B7); the offsets are a
        /// choice inside those two days.
        var notificationRetries = WebhookRetrySchedule(retriesAfter: [.seconds(60), .seconds(600), .seconds(3600), .seconds(6 * 3600), .seconds(24 * 3600), .seconds(48 * 3600)])
        /// Which key signs 3.0 notifications: `secret` (§2.12 A9), or `apiKey` for negative tests.
        var signNotificationsWith = "secret"
        /// Whether the service is up; when not, every API call answers 503 (§2.6).
        var available = true
        /// Whether the account has the refund wallet of the newer refund API (§2.12 B4); without it `POST /v3/refunds`
        /// and the balance answer 400 naming `receiver_id`.
        var refundWallet = true
        /// The wallet's balance in CLP (choice: the docs publish no starting value); each refund draws on it.
        var refundWalletBalance = 1_000_000.0
        /// The most digits before the point of an amount: khipu publishes no bound (§2.4); 12 by default, a choice
        /// (`mock: account {maxAmountDigits}`).
        var maxAmountDigits = AmountRule.defaultIntegerDigits
        /// Whether a payment the payer rejects (`done`/`rejected-by-payer` or `marked-as-abuse`) is notified. khipu's
        /// notification API 3.0 sends "success/failure" events (providers.md §2.7, docs.khipu.com/portal/en/payment-webhook),
        /// so 3.0 notifies it by default; API 1.3 notifies reconciliation only (§2.7, §2.12 B8) and never does.
        /// `mock: account {notifyRejections: false}` turns it off.
        var notifyRejections = true
    }

    /// A notification to send.
    struct Notification: Sendable {
        var paymentId: String
        var url: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
    }

    var account = Account()
    var payments: [String: KhipuPayment] = [:]
    var byToken: [String: String] = [:]
    /// Payments the merchant deleted, whose pages say so (bounded like the payments).
    var deleted: Set<String> = []
    /// Payment ids, oldest first (for eviction past the store's capacity); from `oldest` on.
    var creationOrder: [String] = []
    var oldest = 0
    /// Notification attempts, oldest first: `{payment_id, url, attempt, status, error, api_version}`.
    var deliveries: [Value] = []
    let random: @Sendable () -> UInt64

    init(random: @escaping @Sendable () -> UInt64) {
        self.random = random
    }

    /// `count` random characters of `alphabet`.
    func randomText(_ count: Int, _ alphabet: [Character]) -> String {
        String((0..<count).map { _ in alphabet[Int(self.random() % UInt64(alphabet.count))] })
    }

    // MARK: Operations (providers.md §2.3)

    /// Creates a payment from validated fields.
    mutating func create(_ fields: [String: String], amount: Double, expiresAt: Date, apiVersion: String, now: Date, pageBase: String) -> KhipuPayment {
        var id = ""
        repeat { id = randomText(12, Array("abcdefghijklmnopqrstuvwxyz0123456789")) } while payments[id] != nil
        let token = randomText(64, Array("0123456789abcdef"))
        var payment = KhipuPayment(
            id: id, apiVersion: apiVersion, fields: fields, amount: amount, createdAt: now, expiresAt: expiresAt, notificationToken: token)
        payment.pageBase = pageBase
        payments[id] = payment
        byToken[token] = id
        creationOrder.append(id)
        return payment
    }

    /// The payment `id`, or the version's "not found": 400 naming `payment_id` on 2.0 (its clients type only
    /// 400/403/503, §2.12 A6, D), 404 on 3.0.
    func payment(_ id: String, apiVersion: String) throws(KhipuFailure) -> KhipuPayment {
        guard let payment = payments[id] else {
            if apiVersion == "3.0" { throw KhipuFailure(code: 404, message: "Pago no encontrado") }
            throw KhipuFailure.invalid("payment_id", "El pago \(id) no existe")
        }
        return payment
    }

    /// `DELETE`: only a pending payment, irreversibly (§2.3).
    mutating func delete(_ id: String, apiVersion: String) throws(KhipuFailure) -> Value {
        let payment = try self.payment(id, apiVersion: apiVersion)
        guard payment.status == .pending else {
            throw KhipuFailure.invalid("payment_id", "Solo se puede eliminar un pago pendiente; este está \(payment.status.rawValue)")
        }
        payments[id] = nil
        byToken[payment.notificationToken] = nil
        if deleted.count >= 10_000 { deleted.removeAll() }
        deleted.insert(id)
        return .object(["message": .string("Pago eliminado")])
    }

    /// Refund of a paid payment, `amount` or the rest (§2.3, §2.12 B3, B5): 3.0 ends `partially-refunded` or
    /// `fully-refunded`; 2.0 only refunds whole payments and reports `reversed`, as older API versions did.
    /// Each refund is recorded as a row `{id, status: pending, amount, currency, request_date}` (§2.12 B4; choice: rows
    /// stay `pending`, as the docs give no time for authorisation or payout); `refund_id` in the answer names it.
    mutating func refund(_ id: String, amount: Double?, apiVersion: String, now: Date) throws(KhipuFailure) -> Value {
        var payment = try self.payment(id, apiVersion: apiVersion)
        guard payment.status == .done, [.normal, .partiallyRefunded, .markedPaidByReceiver].contains(payment.statusDetail) else {
            throw KhipuFailure.invalid("payment_id", "Solo se puede reembolsar un pago pagado")
        }
        let refundable = payment.amount - payment.refunded
        let value = amount ?? refundable
        guard value > 0, value <= refundable + 0.00005 else {
            throw KhipuFailure.invalid("amount", "El monto excede el saldo reembolsable del pago")
        }
        if apiVersion == "2.0" && value < refundable - 0.00005 {
            throw KhipuFailure.invalid("amount", "La API 2.0 solo reembolsa el monto total del pago")
        }
        payment.refunded += value
        let refundId = uuid()
        payment.refunds.append(
            .object([
                "id": .string(refundId), "status": "pending", "amount": .string(Self.fourDecimals(value)),
                "currency": .string(payment.fields["currency"] ?? "CLP"), "request_date": .string(ISOTimestamp.format(now, fraction: .always)),
            ]))
        let whole = payment.refunded >= payment.amount - 0.00005
        payment.statusDetail = apiVersion == "2.0" ? .reversed : (whole ? .fullyRefunded : .partiallyRefunded)
        payments[id] = payment
        return .object(["message": .string(whole ? "Pago reembolsado" : "Reembolso parcial registrado"), "refund_id": .string(refundId)])
    }

    /// The refund wallet must be enabled for the newer refund API (§2.12 B4: the documented 400 text).
    func requireRefundWallet() throws(KhipuFailure) {
        guard account.refundWallet else {
            throw KhipuFailure.invalid("receiver_id", "La cuenta de cobro con ID \(account.receiverId) no está habilitada para hacer reversas.")
        }
    }

    /// `GET /v3/refund-wallet/balance` (§2.12 B4): `{balance, currency, add_funds_url}`, the balance a 4-decimal string.
    func refundWalletBalance() throws(KhipuFailure) -> Value {
        try requireRefundWallet()
        return .object([
            "balance": .string(Self.fourDecimals(account.refundWalletBalance)), "currency": "CLP",
            "add_funds_url": "https://khipu.com/merchant/refund-wallet/add-funds",
        ])
    }

    /// `POST /v3/refunds {type: full|partial, payment_id, amount?}` (§2.12 B4): refunds through the wallet, the same
    /// refundable-balance rules as `POST /v3/payments/{id}/refunds`; answers `{id, payment_id, refunded_amount,
    /// total_refunded, remaining, currency, message}` with 4-decimal strings. khipu does not deduplicate refunds.
    mutating func walletRefund(_ parameters: [String: String], now: Date) throws(KhipuFailure) -> Value {
        try requireRefundWallet()
        let type = parameters["type"] ?? ""
        guard type == "full" || type == "partial" else { throw KhipuFailure.invalid("type", "El tipo debe ser full o partial") }
        guard let id = parameters["payment_id"], !id.isEmpty else { throw KhipuFailure.invalid("payment_id", "El parámetro payment_id es obligatorio") }
        // An unknown payment named in the body is a field error, not a missing resource (choice).
        guard let payment = payments[id] else { throw KhipuFailure.invalid("payment_id", "El pago \(id) no existe") }
        var amount: Double?
        // The published v3 spec (as generated in khipu-python-sdk): `amount` is required for `partial` and may not be
        // used with `full`; partial refunds go on "while the refund wallet has a balance".
        if type == "full", let text = parameters["amount"], !text.isEmpty {
            throw KhipuFailure.invalid("amount", "El monto no se puede indicar en una devolución total")
        }
        if type == "partial" {
            guard let text = parameters["amount"], !text.isEmpty else {
                throw KhipuFailure.invalid("amount", "Un reembolso parcial necesita un monto válido")
            }
            amount = try KhipuCreateRequest.checkedAmount(text, currency: payment.fields["currency"], maxDigits: account.maxAmountDigits)
        }
        let value = amount ?? (payment.amount - payment.refunded)
        // Choice: a refund larger than the wallet's balance is refused (the spec says refunds go on while the wallet
        // has a balance, not what the error is).
        guard value <= account.refundWalletBalance + 0.00005 else {
            throw KhipuFailure.invalid("amount", "Saldo insuficiente en la billetera de reembolsos")
        }
        let message = try refund(id, amount: amount, apiVersion: "3.0", now: now)
        account.refundWalletBalance -= value
        let after = payments[id] ?? payment
        return .object([
            "id": message["refund_id"] ?? .null, "payment_id": .string(id), "refunded_amount": .string(Self.fourDecimals(value)),
            "total_refunded": .string(Self.fourDecimals(after.refunded)),
            "remaining": .string(Self.fourDecimals(max(0, after.amount - after.refunded))),
            "currency": .string(after.fields["currency"] ?? "CLP"), "message": message["message"] ?? .null,
        ])
    }

    /// Moves a refund row forward (§2.12 B4): `pending` → `authorized` (adds `authorization_date`) → `paid` (adds
    /// `payout_date`). `expired` is not offered: what an expired refund does to the balances is not documented.
    mutating func advanceRefund(_ id: String, refundId: String, to status: String, now: Date) throws(MockHTTPError) -> Value {
        guard var payment = payments[id] else { throw MockHTTPError(.notFound, "no khipu payment \(MockHTTPError.quoted(id))") }
        guard let index = payment.refunds.firstIndex(where: { $0["id"]?.stringValue == refundId }),
            var row = payment.refunds[index].objectValue
        else {
            throw MockHTTPError(.notFound, "payment \(id) has no refund \(MockHTTPError.quoted(refundId))")
        }
        let current = row["status"]?.stringValue ?? ""
        let date = Value.string(ISOTimestamp.format(now, fraction: .always))
        switch (current, status) {
        case ("pending", "authorized"): row["authorization_date"] = date
        case ("authorized", "paid"): row["payout_date"] = date
        default:
            throw MockHTTPError(.conflict, "refund \(refundId) is \(current); it can move pending → authorized → paid, not to \(MockHTTPError.quoted(status))")
        }
        row["status"] = .string(status)
        payment.refunds[index] = .object(row)
        payments[id] = payment
        return .object(["refund": .object(row)])
    }

    /// A version-4-shaped UUID from the mock's random source.
    func uuid() -> String {
        let hex = randomText(32, Array("0123456789abcdef"))
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), "4" + hex.dropFirst(13).prefix(3), "8" + hex.dropFirst(17).prefix(3), hex.suffix(12)]
        return parts.map(String.init).joined(separator: "-")
    }

    /// An amount as khipu writes refund and balance amounts: a string with 4 decimals (§2.12 A11, B4).
    static func fourDecimals(_ value: Double) -> String { String(format: "%.4f", value) }

    /// `confirm` (a contracted feature, §2.3): only a payment the payer already paid.
    mutating func confirm(_ id: String, apiVersion: String) throws(KhipuFailure) -> Value {
        var payment = try self.payment(id, apiVersion: apiVersion)
        guard payment.status != .pending else { throw KhipuFailure.invalid("payment_id", "El pago aún no ha sido pagado") }
        payment.confirmed = true
        payments[id] = payment
        return .object(["message": .string("Pago confirmado")])
    }

    // MARK: The payer and reconciliation

    /// DemoBank (§2.8): coordinates `11 22 33` make the transfer (`verifying`, reconciled `conciliationDelay` later);
    /// `99 99 99` is a bank error (the payment stays `pending`, the payer may try again). Returns when to reconcile.
    mutating func pay(_ id: String, coordinates: String, now: Date) throws(MockHTTPError) -> (Value, Date?) {
        guard var payment = payments[id] else { throw MockHTTPError(.notFound, "no khipu payment \(MockHTTPError.quoted(id))") }
        guard payment.status == .pending else {
            throw MockHTTPError(.conflict, "payment \(id) is \(payment.status.rawValue), not pending: the payer cannot pay it again")
        }
        guard now < payment.expiresAt else {
            throw MockHTTPError(.conflict, "payment \(id) expired at \(ISOTimestamp.format(payment.expiresAt)): the payer can no longer pay it")
        }
        let compact = coordinates.filter { !$0.isWhitespace }
        switch compact {
        case "112233":
            payment.status = .verifying
            payment.statusDetail = .normal
            payment.bank = "DemoBank"
            let due = now.addingTimeInterval(account.conciliationDelay)
            payment.conciliatesAt = due
            payments[id] = payment
            return (.object(["result": "OK", "payment": payment.json(receiverId: account.receiverId)]), due)
        case "999999":
            return (
                .object([
                    "result": "ERROR", "failureReason": "TASK_FINISHED", "payment": payment.json(receiverId: account.receiverId),
                ]), nil
            )
        default:
            throw MockHTTPError(.badRequest, "DemoBank coordinates are '11 22 33' (success) or '99 99 99' (bank error), got \(MockHTTPError.quoted(coordinates))")
        }
    }

    /// The payer declares they will not pay: `done`/`rejected-by-payer`, or `marked-as-abuse` (§2.5).
    /// The rejection is notified on API 3.0 (see ``Account/notifyRejections``), never on 1.3.
    mutating func reject(_ id: String, abuse: Bool, now: Date) throws(MockHTTPError) -> (Value, Notification?) {
        guard var payment = payments[id] else { throw MockHTTPError(.notFound, "no khipu payment \(MockHTTPError.quoted(id))") }
        guard payment.status == .pending else { throw MockHTTPError(.conflict, "payment \(id) is \(payment.status.rawValue), not pending") }
        payment.status = .done
        payment.statusDetail = abuse ? .markedAsAbuse : .rejectedByPayer
        payments[id] = payment
        let notifies = account.notifyRejections && payment.notifyAPIVersion == "3.0"
        return (.object(["payment": payment.json(receiverId: account.receiverId)]), notifies ? notification(for: payment, now: now) : nil)
    }

    /// The merchant marks a pending payment paid by other means: `done`/`marked-paid-by-receiver`, notified.
    mutating func markPaid(_ id: String, now: Date) throws(MockHTTPError) -> (KhipuPayment, Notification?) {
        guard var payment = payments[id] else { throw MockHTTPError(.notFound, "no khipu payment \(MockHTTPError.quoted(id))") }
        guard payment.status == .pending else { throw MockHTTPError(.conflict, "payment \(id) is \(payment.status.rawValue), not pending") }
        payment.status = .done
        payment.statusDetail = .markedPaidByReceiver
        payment.conciliatedAt = now
        payments[id] = payment
        return (payment, notification(for: payment, now: now))
    }

    /// Reconciles a `verifying` payment (`done`/`normal`) and returns its notification, if it has a `notify_url`.
    mutating func conciliate(_ id: String, now: Date) -> (KhipuPayment, Notification?)? {
        guard var payment = payments[id], payment.status == .verifying else { return nil }
        payment.status = .done
        payment.conciliatedAt = now
        payment.conciliatesAt = nil
        payments[id] = payment
        return (payment, notification(for: payment, now: now))
    }

    /// The notification of `payment` (§2.7, §2.12 A9, A10, B8): API 1.3 — form `api_version=1.3` and
    /// `notification_token`; API 3.0 — the payment JSON, signed in `x-khipu-signature: t=<ms>,s=<base64>`.
    func notification(for payment: KhipuPayment, now: Date) -> Notification? {
        guard let url = payment.fields["notify_url"], !url.isEmpty else { return nil }
        if payment.notifyAPIVersion == "3.0" {
            let body = JSONText.encodeBytes(payment.json(receiverId: account.receiverId))
            let t = String(Int64((now.timeIntervalSince1970 * 1000).rounded()))
            let key = account.signNotificationsWith == "apiKey" ? account.apiKey : account.secret
            return Notification(
                paymentId: payment.id, url: url,
                headers: [
                    ("Content-Type", "application/json"), ("x-khipu-signature", KhipuSignature.notificationHeader(t: t, body: body, secret: key)),
                ], body: body)
        }
        let form = FormText.encode([("api_version", "1.3"), ("notification_token", payment.notificationToken)])
        return Notification(paymentId: payment.id, url: url, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(form.utf8))
    }
}
