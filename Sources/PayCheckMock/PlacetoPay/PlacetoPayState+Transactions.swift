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
        var session = try self.sessionHolding(internalReference, site: site, now: now, outbox: &outbox)
        guard let index = session.transactionIndex(internalReference) else {
            throw PlacetoPayFailure.requestNotValid("The transaction you are looking for does not exist", at: now)
        }
        let amount = try Self.amount(
            body["amount"], currency: session.transactions[index].currency, maxDigits: site.maxAmountDigits, now: now)
        // The answer's top-level `status` is the resulting transaction's (OpenAPI `/api/transaction` examples:
        // APPROVED/00 for checkout, reauthorization, reverse and confirm, REJECTED/?C for cancel).
        let result: PlacetoPayTransaction
        switch action {
        case "reverse":
            result = try self.reverse(&session, index, amount: amount, site: site, now: now)
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
            } else {
                session.cancelConfirmation(index, at: now)
            }
            result = session.transactions[index]
        default:
            result = try self.preAuthorization(action, &session, index, amount: amount, now: now)
        }
        self.commit(session, outbox: &outbox)
        return .object(["status": result.status.json(locale: session.locale), "payment": result.json(locale: session.locale)])
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

    /// Refunds transaction `index`, wholly or by `amount` (refund page): repeated partial refunds are allowed until
    /// the whole amount is refunded; one more answers 200 with `FAILED`/`BR` "Transaction already refunded" as both
    /// the top-level and the payment status. Before the transaction is settled (the site's `settlementDelay`, a
    /// choice: the page gives no timing) only a full refund is possible. The answer is the refund transaction, with
    /// a new `internalReference` (OpenAPI `Reverse` example); the refunded one shows `refunded: true` once wholly
    /// refunded, and the session status never changes (§1.5).
    private mutating func reverse(
        _ session: inout PlacetoPaySession,
        _ index: Int,
        amount: (currency: String?, total: Double)?,
        site: PlacetoPaySite,
        now: Date
    ) throws(PlacetoPayFailure) -> PlacetoPayTransaction {
        let transaction = session.transactions[index]
        guard transaction.isApproved else {
            throw PlacetoPayFailure.requestNotValid(
                "The [reverse] action is only available for approved transactions", at: now)
        }
        if transaction.refunded {
            return self.derivedTransaction(of: transaction, total: 0, status: .alreadyRefunded(at: now), in: nil)
        }
        try Self.checkCurrency(amount?.currency, of: transaction, now: now)
        let refund = amount?.total ?? transaction.refundableAmount
        guard refund <= transaction.refundableAmount + PlacetoPayTransaction.amountTolerance else {
            throw PlacetoPayFailure.requestNotValid(
                "The amount to reverse (\(Value.format(refund))) exceeds the amount that can still be refunded "
                    + "(\(Value.format(transaction.refundableAmount)))",
                at: now)
        }
        let settled = now >= transaction.status.date.addingTimeInterval(site.settlementDelay)
        if !settled, refund + PlacetoPayTransaction.amountTolerance < transaction.refundableAmount {
            throw PlacetoPayFailure.requestNotValid(
                "Partial refunds are not possible before the transaction is settled; make a full refund instead", at: now)
        }
        session.transactions[index].refundedAmount = min(transaction.total, transaction.refundedAmount + refund)
        return self.derivedTransaction(of: transaction, total: refund, status: .transactionApproved(at: now), in: nil)
    }

    /// `checkout` (capture) and `reauthorization` (new amount) of a `type: checkin` pre-authorization (§1.7). Each
    /// answers with a new transaction, with its own `internalReference` (OpenAPI `Checkout` and `Reauthorization`
    /// examples), added to the session's `payment` list: the capture (which can then be reversed), or the new
    /// pre-authorization (which replaces the old one for a later `checkout`).
    private mutating func preAuthorization(
        _ action: String,
        _ session: inout PlacetoPaySession,
        _ index: Int,
        amount: (currency: String?, total: Double)?,
        now: Date
    ) throws(PlacetoPayFailure) -> PlacetoPayTransaction {
        guard session.request.isCheckin else {
            throw PlacetoPayFailure.requestNotValid(
                "The [\(action)] action is only available for transactions of checkin (pre-authorization) sessions",
                at: now)
        }
        let original = session.transactions[index]
        guard original.isApproved, !original.captured, !original.superseded else {
            throw PlacetoPayFailure.requestNotValid(
                "The [\(action)] action is only available for approved pre-authorizations that were not captured yet",
                at: now)
        }
        try Self.checkCurrency(amount?.currency, of: original, now: now)
        if action == "reauthorization" {
            guard let amount else {
                throw PlacetoPayFailure.requestNotValid(
                    "The amount field is required for the [reauthorization] action", at: now)
            }
            session.transactions[index].superseded = true
            let replacement = self.derivedTransaction(
                of: original, total: amount.total, status: .transactionApproved(at: now), in: session)
            session.transactions.append(replacement)
            return replacement
        }
        let total = amount?.total ?? original.total
        guard total <= original.total + PlacetoPayTransaction.amountTolerance else {
            throw PlacetoPayFailure.requestNotValid(
                "The amount to capture (\(Value.format(total))) exceeds the authorized amount "
                    + "(\(Value.format(original.total)))",
                at: now)
        }
        session.transactions[index].captured = true
        var capture = self.derivedTransaction(of: original, total: total, status: .transactionApproved(at: now), in: session)
        capture.captured = true
        session.transactions.append(capture)
        return capture
    }

    /// A new transaction made from `original` (same card, reference and currency) with a new `internalReference`;
    /// reachable by later actions only when it is given a `session` to belong to.
    private mutating func derivedTransaction(
        of original: PlacetoPayTransaction,
        total: Double,
        status: PlacetoPayStatus,
        in session: PlacetoPaySession?
    ) -> PlacetoPayTransaction {
        let internalReference = self.nextInternalReference
        self.nextInternalReference += 1
        if let session { self.sessionOfTransaction[internalReference] = session.requestId }
        return PlacetoPayTransaction(
            internalReference: internalReference, reference: original.reference, card: original.card,
            currency: original.currency, total: total, status: status)
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
    /// The optional `amount{currency, total}` of an action: `total` checked like a session's in the transaction's
    /// currency (``PlacetoPaySessionRequest/amountProblem(_:_:currency:maxDigits:allowsZero:)``).
    private static func amount(_ value: Value?, currency: String, maxDigits: Int, now: Date) throws(PlacetoPayFailure)
        -> (currency: String?, total: Double)?
    {
        guard let value, value != .null else { return nil }
        guard let object = value.objectValue else {
            throw PlacetoPayFailure.requestNotValid("The amount field must be an object {currency, total}", at: now)
        }
        let given = object["currency"]?.stringValue
        let total = object["total"] ?? .null
        if let problem = PlacetoPaySessionRequest.amountProblem(
            total, "amount.total", currency: given ?? currency, maxDigits: maxDigits)
        {
            throw PlacetoPayFailure.requestNotValid(problem, at: now)
        }
        guard let number = total.numberValue else {
            throw PlacetoPayFailure.requestNotValid("The amount.total field must be a number greater than 0", at: now)
        }
        return (given, number)
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
