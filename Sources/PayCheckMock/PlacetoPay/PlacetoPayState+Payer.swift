import Foundation
import PayCheckCore
import HTTPTypes
import PayCheckProviders

/// What the payer does on the checkout page, driven by the suite through `/__paycheck/placetopay/payer/…`.
///
/// Control errors: 404 for an unknown session, 409 for a session in the wrong state, 400 for bad input.
extension PlacetoPayState {
    /// Pays session `attempt.requestId` with a test card (§1.10); answers `{requestId, session, transaction}`.
    mutating func pay(
        _ attempt: PlacetoPayPayerAttempt,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(MockHTTPError) -> Value {
        var session = try self.payableSession(attempt.requestId, now: now, outbox: &outbox)
        let card = PlacetoPayCard(number: attempt.cardNumber, expiry: attempt.expiry)
        if let allowed = session.request.paymentMethods,
            !allowed.contains(card.brand.paymentMethod), !allowed.contains(card.brand.franchise.lowercased())
        {
            // `paymentMethod` restricts what the checkout offers (OpenAPI `RedirectRequest.paymentMethod`).
            throw MockHTTPError(
                .conflict,
                "session \(session.requestId) offers only \(allowed.joined(separator: ", ")); a "
                    + "\(card.brand.paymentMethod) card cannot be used")
        }
        var cardAttempt = PlacetoPayTestCard.Attempt(
            otp: attempt.otp, expiry: attempt.expiry, cvv: attempt.cvv, amount: 0, currency: session.request.currency)

        if session.request.kind == .subscription {
            guard attempt.amount == nil else {
                throw MockHTTPError(
                    .badRequest,
                    "session \(session.requestId) only tokenizes a card (subscription); it takes no 'amount'")
            }
            // Choice: tokenization resolves at once; a card that would end approved succeeds.
            let succeeded =
                switch card.outcome(cardAttempt, now: now) {
                case .approved, .pending(_, true): true
                default: false
                }
            if succeeded { self.tokenize(&session, card: card, at: now) }
            session.applyTokenization(succeeded: succeeded, at: now)
            self.commit(session, outbox: &outbox)
            return .object([
                "requestId": .int(session.requestId), "session": session.status.json, "transaction": .null,
                "subscription": session.subscription?.json ?? .null,
            ])
        }

        cardAttempt.amount = try Self.amountToPay(attempt.amount, session: session)
        let transaction = self.newTransaction(for: session, card: card, amount: cardAttempt.amount, now: now)
        session.addAttempt(transaction, outcome: card.outcome(cardAttempt, now: now), now: now)
        self.commit(session, outbox: &outbox)
        let stored = self.sessions[session.requestId] ?? session
        return .object([
            "requestId": .int(stored.requestId), "session": stored.status.json,
            "transaction": stored.transactions.last?.json ?? .null,
        ])
    }

    /// The payer presses "cancel" on the checkout page: `REJECTED`/`?C` (§1.5).
    mutating func payerCancel(
        _ requestId: Int,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(MockHTTPError) -> Value {
        var session = try self.payableSession(requestId, now: now, outbox: &outbox)
        guard session.status.status == PlacetoPayStatus.Name.pending else {
            throw MockHTTPError(
                .conflict,
                "session \(requestId) is partially paid (\(session.status.status)); the payer can only pay the rest or let it expire"
            )
        }
        session.status = .sessionCancelledByPayer(at: now)
        self.commit(session, outbox: &outbox)
        return .object(["requestId": .int(requestId), "session": session.status.json])
    }

    /// The payer closes the checkout page: recorded, no state change; the session expires later (§1.5).
    mutating func abandon(
        _ requestId: Int,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(MockHTTPError) -> Value {
        var session = try self.openSession(requestId, now: now, outbox: &outbox)
        session.abandonedAt = now
        self.commit(session, outbox: &outbox)
        return .object([
            "requestId": .int(requestId), "session": session.status.json, "abandoned": .bool(true),
            "expiresAt": .string(PlacetoPayStatus.format(session.expiresAt)),
        ])
    }

    /// Session `requestId` up to date, provided it is not final.
    private mutating func openSession(
        _ requestId: Int,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(MockHTTPError) -> PlacetoPaySession {
        guard let session = self.refreshedSession(requestId, now: now, outbox: &outbox) else {
            throw MockHTTPError(.notFound, "no PlacetoPay session with requestId \(requestId)")
        }
        guard !session.isFinal else {
            throw MockHTTPError(
                .conflict,
                "session \(requestId) is already final (\(session.status.status)/\(session.status.reason)); "
                    + "the payer can no longer act on it")
        }
        return session
    }

    /// Session `requestId` up to date, provided it is open and has no payment in progress.
    private mutating func payableSession(
        _ requestId: Int,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(MockHTTPError) -> PlacetoPaySession {
        let session = try self.openSession(requestId, now: now, outbox: &outbox)
        if let inProgress = session.inProgressTransaction {
            let hint =
                inProgress.isBankPending
                ? "advance the mock clock until the bank resolves it"
                : "the merchant must confirm or cancel it first"
            throw MockHTTPError(
                .conflict,
                "session \(requestId) has a payment in progress (internalReference \(inProgress.internalReference) is "
                    + "\(inProgress.status.status)); \(hint)")
        }
        return session
    }

    /// The amount of a payment: the given partial amount of an `allowPartial` session (at most what is left), or
    /// the session total (what is left, for a partly paid session).
    private static func amountToPay(_ amount: Double?, session: PlacetoPaySession) throws(MockHTTPError) -> Double {
        let remaining = session.request.allowPartial ? session.remainingAmount : session.request.total
        guard let amount else { return remaining }
        // The payer pays in the session's currency: its decimals hold (a partial 1e-300 is no payment).
        if let problem = PlacetoPaySessionRequest.amountProblem(
            Value(number: amount), "amount", currency: session.request.currency, maxDigits: AmountRule.defaultIntegerDigits)
        {
            throw MockHTTPError(.badRequest, "'amount': \(problem)")
        }
        let tolerance = PlacetoPayTransaction.amountTolerance
        guard session.request.allowPartial else {
            guard abs(amount - session.request.total) <= tolerance else {
                throw MockHTTPError(
                    .badRequest,
                    "session \(session.requestId) does not allow partial payments (payment.allowPartial is false); omit "
                        + "'amount' or send the total \(Value.format(session.request.total))")
            }
            return session.request.total
        }
        guard amount <= remaining + tolerance else {
            throw MockHTTPError(
                .badRequest,
                "'amount' \(Value.format(amount)) exceeds the \(Value.format(remaining)) still to pay "
                    + "in session \(session.requestId)")
        }
        return min(amount, remaining)
    }
}
