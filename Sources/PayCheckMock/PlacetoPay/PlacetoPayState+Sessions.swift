import Foundation
import PayCheckCore
import PayCheckProviders

/// The merchant's session endpoints: create (§1.4), query (§1.5), cancel (§1.6) and collect (§1.8).
extension PlacetoPayState {
    /// `POST /api/session`: validates the request and creates a `PENDING` session.
    mutating func createSession(
        _ body: [String: Value],
        site: PlacetoPaySite,
        now: Date,
        baseURL: String
    ) throws(PlacetoPayFailure) -> Value {
        let request = try PlacetoPaySessionRequest.parse(
            body, mode: .create, maxAmountDigits: site.maxAmountDigits, now: now)
        if request.requiresConfirmation, !site.allowConfirmationFlow {
            throw PlacetoPayFailure.invalidField(
                "The metadata.requiresConfirmation field needs a site with the allowConfirmationFlow setting enabled",
                at: now)
        }
        let session = self.newSession(request, site: site, now: now, baseURL: baseURL, isCollect: false)
        // Committed, so its expiry is scheduled at once: an abandoned checkout is notified when it expires (§1.9),
        // without anyone reading it first. A new session is not final, so nothing is queued to notify now.
        var outbox: [PlacetoPayNotification] = []
        self.commit(session, outbox: &outbox)
        return .object([
            "status": PlacetoPayStatus.processed(at: now).json(locale: session.locale),
            "requestId": .int(session.requestId),
            "processUrl": .string(session.processUrl),
        ])
    }

    /// `POST /api/session/{requestId}`: the session, brought up to date with the mock clock.
    mutating func querySession(
        _ requestId: Int,
        site: PlacetoPaySite,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(PlacetoPayFailure) -> Value {
        try self.ownedSession(requestId, site: site, now: now, outbox: &outbox).queryJSON
    }

    /// `POST /api/session/{requestId}/cancel`: `REJECTED`/`MC`, only while pending with no approved and no
    /// in-progress payment (§1.6).
    mutating func cancelSession(
        _ requestId: Int,
        site: PlacetoPaySite,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(PlacetoPayFailure) -> Value {
        var session = try self.ownedSession(requestId, site: site, now: now, outbox: &outbox)
        guard session.isMerchantCancellable() else {
            let inProgress = session.status.status == PlacetoPayStatus.Name.pending
            throw PlacetoPayFailure.sessionNotCancellable(
                inProgress
                    ? "Sessions with payments in progress cannot be cancelled"
                    : "Sessions that are not pending cannot be cancelled",
                at: now)
        }
        session.status = .sessionCancelledByMerchant(at: now)
        self.commit(session, outbox: &outbox)
        return .object([
            "status": PlacetoPayStatus.cancelProcessed(at: now).json(locale: session.locale), "session": session.queryJSON,
        ])
    }

    /// `POST /api/collect`: charges a token's card in a new one-attempt session; answers like a query (§1.8).
    mutating func collect(
        _ body: [String: Value],
        site: PlacetoPaySite,
        now: Date,
        baseURL: String,
        outbox: inout [PlacetoPayNotification]
    ) throws(PlacetoPayFailure) -> Value {
        let request = try PlacetoPaySessionRequest.parse(
            body, mode: .collect, maxAmountDigits: site.maxAmountDigits, now: now)
        guard let stored = self.storedToken(token: request.token, subtoken: request.subtoken, site: site) else {
            throw PlacetoPayFailure.invalidToken(at: now)
        }
        var session = self.newSession(request, site: site, now: now, baseURL: baseURL, isCollect: true)
        let attempt = PlacetoPayTestCard.Attempt(
            otp: nil, expiry: stored.card.expiry, cvv: nil,
            amount: request.total, currency: request.currency)
        let transaction = self.newTransaction(for: session, card: stored.card, amount: request.total, now: now)
        session.addAttempt(transaction, outcome: stored.card.outcome(attempt, now: now), now: now)
        self.commit(session, outbox: &outbox)
        return self.sessions[session.requestId]?.queryJSON ?? session.queryJSON
    }

    /// The session `requestId` of `site`, up to date.
    /// - Throws: 404 `request_not_valid` when unknown; 401 `unauthorized` when it belongs to another site.
    mutating func ownedSession(
        _ requestId: Int,
        site: PlacetoPaySite,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) throws(PlacetoPayFailure) -> PlacetoPaySession {
        guard let stored = self.sessions[requestId] else { throw PlacetoPayFailure.sessionNotFound(at: now) }
        guard stored.login == site.login else { throw PlacetoPayFailure.sessionOfAnotherSite(at: now) }
        return self.refreshedSession(requestId, now: now, outbox: &outbox) ?? stored
    }
}
