import Foundation
import PayCheckCore
import PayCheckProviders

/// What happens to a payment after it is created: captures, cancel-or-refund, the payer in the SDK, the provider's
/// later answers and the mock clock (providers.md §3.6, §3.13 P1-9, P2-22), only along ``YunoTransitions``.
extension YunoState {
    /// A conflict of a control action: the payment's state does not allow it.
    struct Refused: Error { var message: String }

    /// `GET /payments?merchant_order_id=` → a bare array of unwrapped payments, `transactions` an array (§3.13 P1-8).
    func payments(order: String) -> Value {
        .array(
            (paymentsByOrder[order] ?? []).compactMap { payments[$0] }.map {
                guard case .object(var members) = $0.json(retrieved: true) else { return .null }
                members["idempotency_key"] = nil
                return .object(members)
            })
    }

    /// `POST /payments/{id}/cancel-or-refund` → 201 with the transaction (§3.13 P1-9): `reason` required (enum);
    /// a `PENDING` payment is canceled ("only payments with PENDING status can be canceled", Yuno's Cancel Payments
    /// guide), a paid one refunded (partly when `amount` is less than what is left); a refund
    /// while another is in progress, or a payment in another state, is `INVALID_STATUS`; more than what is left,
    /// `INVALID_AMOUNT`.
    mutating func cancelOrRefund(_ id: String, _ body: [String: Value], now: Date) throws(YunoFailure) -> (YunoPayment, Value) {
        guard var payment = payments[id] else { throw YunoFailure(400, "PAYMENT_NOT_FOUND", "Payment not found") }
        guard let reason = body["reason"]?.stringValue else {
            throw YunoFailure(400, "MISSING_PARAMETERS", "Missing parameters: list - [reason]")
        }
        guard ["DUPLICATE", "FRAUDULENT", "REQUESTED_BY_CUSTOMER", "REVERSE"].contains(reason) else { throw .invalid() }
        let given = try Self.optionalText(body, "merchant_reference", 3...255)
        let transaction = uuid()
        // Without a merchant_reference a refund carries the payment's merchant_order_id ("If no merchant_reference is
        // defined, the merchant_order_id of the payment will be associated") and a cancel "" — yuno-docs
        // openapi/payments/cancel-or-refund-a-payment.json, request prose and the "Full Refund" / "Cancel" examples.
        if payment.status == .pending {
            let reference = given ?? ""
            let confirm = gateway.cancel == "confirm"
            payment.add(
                "CANCEL", status: confirm ? "PENDING" : "SUCCEEDED", amount: payment.value, code: confirm ? "PENDING_PROVIDER_CONFIRMATION" : "SUCCEEDED",
                id: transaction, now: now, reason: reason, merchantReference: reference)
            payment.sdkActionRequired = false
            payment.move(.canceled, confirm ? .pendingProviderConfirmation : .canceled, now: now)
        } else if YunoTransitions.paid.contains(payment.pair) {
            let left = payment.captured - payment.refunded
            var amount = left
            if let given = body["amount"], given != .null {
                // A bare number or `{currency, value}`; an object without a value is malformed.
                guard let value = given.objectValue == nil ? given : given["value"], value != .null else { throw .invalid() }
                amount = try Self.amountValue(value, maxDigits: gateway.maxAmountDigits)
            }
            guard amount > 0, amount <= left + 1e-9 else { throw YunoFailure(400, "INVALID_AMOUNT", "Invalid amount") }
            payment.previousSubStatus = payment.subStatus
            let reference = given ?? payment.body["merchant_order_id"]?.stringValue ?? ""
            switch gateway.refund {
            case "retry":
                payment.pendingRefund = amount
                // The refund transaction is declined and waits for Yuno's retry (the status page's REFUND_RETRY_IN_PROCESS row).
                payment.add("REFUND", status: "DECLINED", amount: amount, code: "ERROR", id: transaction, now: now, reason: reason, merchantReference: reference)
                payment.move(.succeeded, .refundRetryInProcess, now: now)
            case "confirm" where amount >= left - 1e-9:
                payment.pendingRefund = amount
                payment.add(
                    "REFUND", status: "PENDING", amount: amount, code: "PENDING_PROVIDER_CONFIRMATION", id: transaction, now: now,
                    reason: reason, merchantReference: reference)
                payment.move(.refunded, .pendingProviderConfirmation, now: now)
            default:
                payment.add(
                    "REFUND", status: "SUCCEEDED", amount: amount, code: "SUCCEEDED", id: transaction, now: now, reason: reason,
                    merchantReference: reference)
                payment.refund(amount, now: now)
            }
        } else {
            throw YunoFailure(400, "INVALID_STATUS", "The payment's status does not allow this operation")
        }
        payments[id] = payment
        return (payment, Self.transactionAnswer(payment))
    }

    /// `POST /payments/{id}/transactions/{transaction_id}/capture` (§3.13 P2-22; Yuno's Capture Authorization page:
    /// `merchant_reference`, `reason` and `amount` required, answer 200 with the CAPTURE transaction and the payment):
    /// only an authorization (`PENDING/AUTHORIZED`), by its transaction id (else `TRANSACTION_NOT_FOUND`); `amount`
    /// less than the authorized amount is a partial capture; more is `INVALID_AMOUNT`.
    mutating func capture(_ id: String, transaction: String, _ body: [String: Value], now: Date) throws(YunoFailure) -> (YunoPayment, Value) {
        guard var payment = payments[id] else { throw YunoFailure(400, "PAYMENT_NOT_FOUND", "Payment not found") }
        guard payment.transactions.contains(where: { $0.id == transaction }) else {
            throw YunoFailure(400, "TRANSACTION_NOT_FOUND", "Transaction not found")
        }
        guard payment.pair == YunoStatePair(.pending, .authorized) else {
            throw YunoFailure(400, "INVALID_STATUS", "The payment's status does not allow this operation")
        }
        let reference = try Self.optionalText(body, "merchant_reference", 3...255)
        if let reason = body["reason"]?.stringValue, !["PRODUCT_CONFIRMED", "REQUESTED_BY_CUSTOMER"].contains(reason) { throw .invalid() }
        let (currency, amount) = try Self.amount(body["amount"], maxDigits: gateway.maxAmountDigits)
        guard currency == payment.currency else { throw YunoFailure(400, "CURRENCY_NOT_ALLOWED", "Currency not allowed") }
        guard amount > 0, amount <= payment.approved + 1e-9 else { throw YunoFailure(400, "INVALID_AMOUNT", "Invalid amount") }
        let id = uuid()
        switch gateway.capture {
        case "reject":
            // "Capture rejection by Yuno": payment REJECTED, capture transaction ERROR (the status page).
            payment.add(
                "CAPTURE", status: "ERROR", amount: amount, code: "ERROR", id: id, now: now, reason: body["reason"]?.stringValue,
                merchantReference: reference)
            payment.move(.rejected, .rejected, now: now)
        case "retry":
            payment.pendingRefund = amount
            payment.add(
                "CAPTURE", status: "DECLINED", amount: amount, code: "ERROR", id: id, now: now, reason: body["reason"]?.stringValue,
                merchantReference: reference)
            payment.move(.succeeded, .captureRetryInProcess, now: now)
        default:
            payment.add(
                "CAPTURE", status: "SUCCEEDED", amount: amount, code: "SUCCEEDED", id: id, now: now, reason: body["reason"]?.stringValue,
                merchantReference: reference)
            payment.captured = amount
            payment.move(.succeeded, amount < payment.approved - 1e-9 ? .partiallyCaptured : .captured, now: now)
        }
        payments[payment.id] = payment
        return (payment, Self.transactionAnswer(payment))
    }

    /// The cancel-or-refund and capture answer: the latest transaction with the payment's summary (§3.13 P1-9; the
    /// capture page's examples: the transaction's `amount` is `{value: what this transaction moved, currency,
    /// captured: 0, refunded: 0}`, the payment's totals are in `payment.amount`).
    static func transactionAnswer(_ payment: YunoPayment) -> Value {
        guard let last = payment.transactions.last, case .object(var members) = payment.json(last) else { return .null }
        members["amount"] = .object(["value": .double(last.amount), "currency": .string(payment.currency), "captured": .int(0), "refunded": .int(0)])
        members["payment"] = payment.summary
        members["payment_method"] = nil
        return .object(members)
    }

    /// `mock: event`: one row of ``YunoTransitions/events``; anything else is refused.
    mutating func apply(event name: String, to id: String, amount: Double?, now: Date) throws(Refused) -> YunoPayment {
        guard var payment = payments[id] else { throw Refused(message: "no Yuno payment '\(id)'") }
        guard let event = YunoTransitions.events[name] else {
            throw Refused(message: "unknown event '\(name)'; one of " + YunoTransitions.events.keys.sorted().joined(separator: ", "))
        }
        guard event.from.contains(payment.pair) else {
            throw Refused(
                message: "payment \(id) is \(payment.key): '\(name)' only applies to "
                    + event.from.map(\.key).sorted().joined(separator: ", ") + " (providers.md §3.6)")
        }
        let transaction = uuid()
        switch name {
        case "gateway":
            payment.applyGateway(now: now)
        case "fraud_approve", "provider_approve":
            payment.approve(now: now)
        case "fraud_decline":
            payment.add("FRAUD_SCREENING", status: "DECLINED", amount: payment.value, code: "FRAUD_VALIDATION", id: transaction, now: now)
            payment.move(payment.status == .succeeded ? .succeeded : .declined, .fraudDeclined, now: now)
        case "fraud_review":
            payment.updateLast(status: "PENDING", code: "FRAUD_VALIDATION", now: now)
            payment.move(.pending, .pendingFraudReview, now: now)
        case "partially_approve":
            let part = amount ?? (payment.value / 2)
            payment.approved = part
            payment.captured = part
            payment.updateLast(status: "SUCCEEDED", code: "SUCCEEDED", now: now)
            payment.move(.succeeded, .partiallyApproved, now: now)
        case "provider_confirm":
            if payment.status == .refunded {
                payment.updateLast(status: "SUCCEEDED", code: "SUCCEEDED", now: now)
                payment.refund(payment.pendingRefund ?? payment.captured - payment.refunded, now: now)
            } else {
                payment.updateLast(status: "SUCCEEDED", code: "SUCCEEDED", now: now)
                payment.move(.canceled, .canceled, now: now)
            }
        case "retry_succeeded":
            payment.updateLast(status: "SUCCEEDED", code: "SUCCEEDED", now: now)
            if payment.subStatus == .captureRetryInProcess {
                payment.captured = payment.pendingRefund ?? payment.approved
                payment.move(.succeeded, .captured, now: now)
            } else {
                payment.refund(payment.pendingRefund ?? 0, now: now)
            }
            payment.pendingRefund = nil
        case "retry_failed":
            payment.updateLast(status: "DECLINED", code: "ERROR", now: now)
            if payment.subStatus == .captureRetryInProcess {
                payment.move(.succeeded, .captureRetryProcessFailed, now: now)
            } else {
                payment.move(.succeeded, payment.previousSubStatus ?? .approved, now: now)
            }
            payment.pendingRefund = nil
        case "dispute":
            payment.previousSubStatus = payment.subStatus
            payment.add("CHARGEBACK", status: "CREATED", amount: amount ?? payment.captured, code: nil, id: transaction, now: now)
            payment.move(.inDispute, .received, now: now)
        case "dispute_lost":
            let lost = amount ?? payment.transactions.last?.amount ?? payment.captured
            // The status page: a partial chargeback SUCCEEDED → SUCCEEDED/PARTIALLY_CHARGEBACKED; CHARGEBACK/LOST
            // with the chargeback transaction PREVENTED.
            if lost < payment.captured - payment.refunded - 1e-9 {
                payment.updateLast(status: "SUCCEEDED", code: "SUCCEEDED", now: now)
                payment.move(.succeeded, .partiallyChargebacked, now: now)
            } else {
                payment.updateLast(status: "PREVENTED", code: nil, now: now)
                payment.move(.chargeback, .lost, now: now)
            }
        case "dispute_won":
            // REVIEW_WON: the payment returns to its previous status (the status page's note).
            payment.updateLast(status: "REVIEW_WON", code: nil, now: now)
            payment.move(.succeeded, payment.previousSubStatus ?? .approved, now: now)
        default:
            let target = event.to ?? YunoStatePair(.error, .error)
            switch name {
            case "reverse": payment.add("CANCEL", status: "PENDING", amount: payment.value, code: nil, id: transaction, now: now, reason: "REVERSE")
            case "reversed": payment.updateLast(status: "SUCCEEDED", code: "SUCCEEDED", now: now)
            case "provider_decline": payment.updateLast(status: "DECLINED", code: "DECLINED_BY_BANK", now: now)
            case "timeout": payment.updateLast(status: "ERROR", code: "PROVIDER_TIMEOUT", now: now)
            case "reject": payment.updateLast(status: "REJECTED", code: nil, now: now)
            case "dispute_review": payment.updateLast(status: "PENDING", code: nil, now: now)
            case "authorization_expired": payment.updateLast(status: "EXPIRED", code: nil, now: now)
            default: payment.updateLast(status: "ERROR", code: "ERROR", now: now)
            }
            payment.sdkActionRequired = false
            payment.move(to: target, now: now)
        }
        if !YunoTransitions.open.contains(payment.pair) { payment.sdkActionRequired = false }
        payments[id] = payment
        return payment
    }

    /// What the payer does in the SDK (the app's `continuePayment`, seed guide step 7; §3.5):
    /// - `continue`: the SDK shows what the payment needs — the PIX QR (`READY_TO_PAY` → `PENDING/IN_PROCESS`; the same
    ///   QR on every reopening), the 3DS challenge (`WAITING_ADDITIONAL_STEP` → `PENDING_OTP_COMPLETION`), the wallet
    ///   sheet waiting for the PSP (unchanged);
    /// - `pay`: the payer pays the QR in the bank app → `SUCCEEDED/APPROVED`;
    /// - `authenticate {success}`: the challenge passes (→ approved, or `AUTHORIZED` without capture) or fails
    ///   (→ `DECLINED/DECLINED`);
    /// - `close`: the payer closes the screen; nothing changes on the backend (no automatic cancel, seed guide).
    mutating func payer(_ action: String, on id: String, success: Bool, now: Date) throws(Refused) -> (YunoPayment, Value) {
        guard var payment = payments[id] else { throw Refused(message: "no Yuno payment '\(id)'") }
        var screen: Value = .null
        func refuse() -> Refused {
            Refused(message: "payment \(id) is \(payment.key): the payer cannot '\(action)' it (providers.md §3.6)")
        }
        switch action {
        case "continue":
            switch (payment.status, payment.subStatus) {
            case (.readyToPay, .created), (.pending, .inProcess):
                payment.closedByUser = false
                // IN_PROCESS: the purchase transaction stays CREATED while the payer is with the provider (status page).
                payment.move(.pending, .inProcess, now: now)
                screen = .object([
                    "type": "QR", "qr_code": payment.qrCode.map { .string($0) } ?? .null,
                    "expires_at": payment.expiresAt.map(YunoPayment.stamp) ?? .null,
                ])
            case (.pending, .waitingAdditionalStep):
                payment.move(.pending, .pendingOTPCompletion, now: now)
                screen = .object(["type": "THREE_D_SECURE_CHALLENGE"])
            case (.pending, .pendingOTPCompletion):
                screen = .object(["type": "THREE_D_SECURE_CHALLENGE"])
            case (.pending, .pendingProviderConfirmation) where payment.method == "APPLE_PAY":
                payment.closedByUser = false
                screen = .object(["type": "WALLET_SHEET"])
            default:
                throw refuse()
            }
        case "pay":
            guard payment.method == "PIX", [YunoStatePair(.readyToPay, .created), YunoStatePair(.pending, .inProcess)].contains(payment.pair) else {
                throw refuse()
            }
            payment.approve(now: now)
        case "authenticate":
            guard payment.pair == YunoStatePair(.pending, .pendingOTPCompletion) else { throw refuse() }
            payment.add(
                "THREE_D_SECURE", status: success ? "SUCCEEDED" : "DECLINED", amount: payment.value, code: success ? "SUCCEEDED" : "FRAUD_VALIDATION",
                id: uuid(), now: now)
            if success {
                payment.add(payment.capture ? "PURCHASE" : "AUTHORIZE", status: "CREATED", amount: payment.value, code: nil, id: uuid(), now: now)
                payment.approve(now: now)
            } else {
                payment.move(.declined, .declined, now: now)
            }
        case "close":
            guard YunoTransitions.open.contains(payment.pair) else { throw refuse() }
            payment.closedByUser = true
        default:
            throw Refused(message: "unknown payer action '\(action)'")
        }
        if !YunoTransitions.open.contains(payment.pair) { payment.sdkActionRequired = false }
        payments[id] = payment
        return (payment, screen)
    }

    /// At `expiresAt`: a PIX QR not paid → `EXPIRED/EXPIRED` (§3.6, seed guide); a wallet payment the PSP never
    /// answered → `ERROR/TIMEOUT`. `nil` when the payment moved on.
    mutating func expire(_ id: String, now: Date) -> YunoPayment? {
        guard var payment = payments[id], let expiresAt = payment.expiresAt, expiresAt <= now else { return nil }
        switch (payment.status, payment.subStatus) {
        case (.readyToPay, .created), (.pending, .inProcess):
            payment.updateLast(status: "EXPIRED", code: "EXPIRED", now: now)
            payment.move(.expired, .expired, now: now)
        case (.pending, .pendingProviderConfirmation) where payment.method == "APPLE_PAY":
            payment.updateLast(status: "ERROR", code: "PROVIDER_TIMEOUT", now: now)
            payment.move(.error, .timeout, now: now)
        default:
            return nil
        }
        payment.sdkActionRequired = false
        payments[id] = payment
        return payment
    }

    /// After the gateway latency: a payment still `CREATED/CREATED` gets the gateway's answer.
    mutating func settleLate(_ id: String, now: Date) -> YunoPayment? {
        guard var payment = payments[id], payment.pair == YunoStatePair(.created, .created), payment.method == "CARD" else { return nil }
        payment.applyGateway(now: now)
        vaultIfAsked(&payment, now: now)
        payments[id] = payment
        return payment
    }
}

extension YunoPayment {
    /// Refunds `amount`: all that is left → `REFUNDED/REFUNDED`, less → `SUCCEEDED/PARTIALLY_REFUNDED` (§3.13 P1-9).
    mutating func refund(_ amount: Double, now: Date) {
        refunded += amount
        pendingRefund = nil
        if refunded >= captured - 1e-9 {
            move(.refunded, .refunded, now: now)
        } else {
            move(.succeeded, .partiallyRefunded, now: now)
        }
    }
}
