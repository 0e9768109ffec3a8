import Foundation
import PayCheckCore

/// Transaction actions: `POST /api/transaction` (§1.7) and the legacy `POST /api/reverse`.
extension PlacetoPayState {
    /// The actions of `/api/transaction` (§1.7).
    static let transactionActions = ["checkout", "reauthorization", "reverse", "confirm", "cancel"]

    /// `POST /api/transaction` with `internalReference`, `action` and an optional `amount{currency,total}`.
    ///
    /// Answers `{status, payment}` where `payment` is the transaction. Invalid input, an unknown transaction and a
    /// wrong state are 400 `request_not_valid` (§1.3; choice for the unknown transaction, as the Python SDK's
    /// fixture `reverse_response_fails_transaction_not_found.json` shows).
    mutating func transactionAction(
        _ body: [String: Value],
        site: PlacetoPaySite,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(PlacetoPayFailure) -> Value {
        let internalReference = try Self.internalReference(body, now: now)
        guard let action = body["action"]?.stringValue else {
            throw PlacetoPayFailure.requestNotValid("The action field is required", at: now)
        }
        guard Self.transactionActions.contains(action) else {
            throw PlacetoPayFailure.requestNotValid(
                "The action \(PlacetoPaySessionRequest.quoted(action)) is not valid; use checkout, reauthorization, "
                    + "reverse, confirm or cancel",
                at: now)
        }
        let amount = try Self.amount(body["amount"], now: now)
        var session = try self.sessionHolding(internalReference, site: site, now: now, outbox: &outbox)
        guard let index = session.transactionIndex(internalReference) else {
            throw PlacetoPayFailure.requestNotValid("The transaction you are looking for does not exist", at: now)
        }
        let status: PlacetoPayStatus
        switch action {
        case "reverse":
            status = try Self.reverse(&session.transactions[index], amount: amount, now: now)
        case "confirm", "cancel":
            let transaction = session.transactions[index]
            if transaction.voidedByExpiry { throw PlacetoPayFailure.transactionExpired(at: now) }
            guard transaction.isAwaitingConfirmation else {
                throw PlacetoPayFailure.requestNotValid(
                    "The [\(action)] action is only available for transactions in a pending confirmation state", at: now
                )
            }
            if action == "confirm" {
                session.markApproved(index, at: now)
                status = .actionDone("The transaction has been confirmed", at: now)
            } else {
                session.cancelConfirmation(index, at: now)
                status = .actionDone("The transaction has been cancelled", at: now)
            }
        default:
            status = try Self.preAuthorization(action, &session, index, amount: amount, now: now)
        }
        self.commit(session, outbox: &outbox)
        let transaction = self.sessions[session.requestId]?.transactions[index] ?? session.transactions[index]
        return .object(["status": status.json, "payment": transaction.json])
    }

    /// `POST /api/reverse` with `internalReference` (legacy, used by the PHP and Python SDKs): a full `reverse`.
    mutating func legacyReverse(
        _ body: [String: Value],
        site: PlacetoPaySite,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(PlacetoPayFailure) -> Value {
        var filtered = body.filter { $0.key == "internalReference" }
        filtered["action"] = .string("reverse")
        return try self.transactionAction(filtered, site: site, now: now, outbox: &outbox)
    }

    /// Refunds `transaction`, wholly or by `amount` (§1.7): repeated partial refunds are allowed until the whole
    /// amount is refunded; one more answers 200 `FAILED`/`BR` "Transaction already refunded" (§1.3 "action
    /// processed but failed"). The session status never changes (§1.5).
    private static func reverse(
        _ transaction: inout PlacetoPayTransaction,
        amount: (currency: String?, total: Double)?,
        now: Date
    ) throws(PlacetoPayFailure) -> PlacetoPayStatus {
        guard transaction.isApproved else {
            throw PlacetoPayFailure.requestNotValid(
                "The [reverse] action is only available for approved transactions", at: now)
        }
        if transaction.refunded { return .actionFailed("Transaction already refunded", at: now) }
        try Self.checkCurrency(amount?.currency, of: transaction, now: now)
        let refund = amount?.total ?? transaction.refundableAmount
        guard refund <= transaction.refundableAmount + PlacetoPayTransaction.amountTolerance else {
            throw PlacetoPayFailure.requestNotValid(
                "The amount to reverse (\(Value.format(refund))) exceeds the amount that can still be refunded "
                    + "(\(Value.format(transaction.refundableAmount)))",
                at: now)
        }
        transaction.refundedAmount = min(transaction.total, transaction.refundedAmount + refund)
        return .actionDone(
            transaction.refunded ? "The transaction has been reversed" : "The transaction has been partially reversed",
            at: now)
    }

    /// `checkout` (capture) and `reauthorization` (new amount) of a `type: checkin` pre-authorization (§1.7).
    private static func preAuthorization(
        _ action: String,
        _ session: inout PlacetoPaySession,
        _ index: Int,
        amount: (currency: String?, total: Double)?,
        now: Date
    ) throws(PlacetoPayFailure) -> PlacetoPayStatus {
        guard session.request.isCheckin else {
            throw PlacetoPayFailure.requestNotValid(
                "The [\(action)] action is only available for transactions of checkin (pre-authorization) sessions",
                at: now)
        }
        guard session.transactions[index].isApproved, !session.transactions[index].captured else {
            throw PlacetoPayFailure.requestNotValid(
                "The [\(action)] action is only available for approved pre-authorizations that were not captured yet",
                at: now)
        }
        try Self.checkCurrency(amount?.currency, of: session.transactions[index], now: now)
        if action == "reauthorization" {
            guard let amount else {
                throw PlacetoPayFailure.requestNotValid(
                    "The amount field is required for the [reauthorization] action", at: now)
            }
            session.transactions[index].total = amount.total
            return .actionDone("The pre-authorization amount has been modified", at: now)
        }
        if let amount {
            guard amount.total <= session.transactions[index].total + PlacetoPayTransaction.amountTolerance else {
                throw PlacetoPayFailure.requestNotValid(
                    "The amount to capture (\(Value.format(amount.total))) exceeds the authorized amount "
                        + "(\(Value.format(session.transactions[index].total)))",
                    at: now)
            }
            session.transactions[index].total = amount.total
        }
        session.transactions[index].captured = true
        return .actionDone("The pre-authorization has been captured", at: now)
    }

    /// The session holding transaction `internalReference` for `site`, up to date.
    private mutating func sessionHolding(
        _ internalReference: Int,
        site: PlacetoPaySite,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(PlacetoPayFailure) -> PlacetoPaySession {
        guard let requestId = self.sessionOfTransaction[internalReference],
            self.sessions[requestId]?.login == site.login,
            let session = self.refreshedSession(requestId, now: now, outbox: &outbox)
        else {
            throw PlacetoPayFailure.requestNotValid("The transaction you are looking for does not exist", at: now)
        }
        return session
    }

    /// The `internalReference` member: an integer, or a string of digits (the Python SDK passes it through).
    private static func internalReference(_ body: [String: Value], now: Date) throws(PlacetoPayFailure) -> Int {
        guard let value = body["internalReference"] else {
            throw PlacetoPayFailure.requestNotValid("The internalReference field is required", at: now)
        }
        guard let reference = value.intValue else {
            throw PlacetoPayFailure.requestNotValid(
                "The internalReference field must be an integer, got \(PlacetoPaySessionRequest.describe(value))",
                at: now)
        }
        return reference
    }

    /// The optional `amount{currency, total}` member; `total` must be a number greater than 0.
    private static func amount(_ value: Value?, now: Date) throws(PlacetoPayFailure) -> (
        currency: String?, total: Double
    )? {
        guard let value, value != .null else { return nil }
        guard let object = value.objectValue else {
            throw PlacetoPayFailure.requestNotValid("The amount field must be an object {currency, total}", at: now)
        }
        guard let total = object["total"]?.numberValue, total > 0 else {
            throw PlacetoPayFailure.requestNotValid("The amount.total field must be a number greater than 0", at: now)
        }
        return (object["currency"]?.stringValue, total)
    }

    /// Fails when `currency` is given and differs from the transaction's.
    private static func checkCurrency(_ currency: String?, of transaction: PlacetoPayTransaction, now: Date)
        throws(PlacetoPayFailure)
    {
        guard let currency, currency != transaction.currency else { return }
        throw PlacetoPayFailure.requestNotValid(
            "The amount.currency \(PlacetoPaySessionRequest.quoted(currency)) does not match the transaction currency "
                + "'\(transaction.currency)'",
            at: now)
    }
}
