import Foundation
import PayCheckCore
import PayCheckProviders

/// Everything one PlacetoPay mock remembers; kept behind the mutex of ``PlacetoPayStore``.
///
/// Operations are synchronous and never do I/O: notifications a change produces are appended to an outbox that
/// the caller sends after releasing the lock (``PlacetoPayContext/transact(_:)``).
struct PlacetoPayState: Sendable {
    /// Known sites by login.
    var sites: [String: PlacetoPaySite]
    /// Sessions by `requestId`.
    var sessions = PlacetoPaySessionTable()
    /// The session of each transaction, by `internalReference`.
    var sessionOfTransaction: [Int: Int] = [:]
    /// Tokenized cards by token.
    var tokens: [String: PlacetoPaySubscription] = [:]
    /// The token of each sub-token.
    var tokenOfSubtoken: [String: String] = [:]
    /// Nonces already accepted, for replay detection (§1.2); indexed so a request costs O(1), see the type.
    var nonces = NonceLedger()
    /// Every notification delivery attempt, oldest first.
    var deliveries: [PlacetoPayNotification.Delivery] = []
    /// The instant each open session next needs the clock's attention (a bank resolution, or its expiry), as
    /// scheduled on the host's ``MockScheduler``.
    var wakeUps: [Int: Date] = [:]
    /// Wake-ups decided under the lock and not scheduled yet (``PlacetoPayContext/transact(_:)`` schedules them).
    var unscheduledWakeUps: [(requestId: Int, at: Date)] = []
    /// The next `requestId`; ids start at 1 per mock instance.
    var nextRequestId = 1
    /// The oldest `requestId` that may still be stored (eviction moves it on).
    var oldestRequestId = 1
    /// The next `internalReference`.
    var nextInternalReference = 100_001
    /// The source of random bits for process URLs and tokens.
    let random: @Sendable () -> UInt64

    /// A fresh state holding only the default sites.
    init(random: @escaping @Sendable () -> UInt64) {
        self.sites = Dictionary(uniqueKeysWithValues: PlacetoPaySite.defaults.map { ($0.login, $0) })
        self.random = random
    }

    /// Checks the `auth` object of `body` (§1.2, §1.3) and returns the authenticated site.
    ///
    /// The seed window is checked against `wallNow` (the unshifted clock, so `mock: clock` moves sessions without
    /// making fresh seeds stale); envelope dates use `now`. A replayed nonce fails with the verifier's default 102.
    mutating func authenticate(_ body: [String: Value], wallNow: Date, now: Date) throws(PlacetoPayFailure)
        -> PlacetoPaySite
    {
        let locale = body["locale"]?.stringValue
        guard let auth = body["auth"]?.objectValue else {
            throw PlacetoPayFailure.authentication(.malformed, locale: locale, at: now)
        }
        let credentials = PlacetoPayAuthVerifier.Credentials(
            login: auth["login"]?.stringValue, tranKey: auth["tranKey"]?.stringValue,
            nonce: auth["nonce"]?.stringValue, seed: auth["seed"]?.stringValue)
        let site = credentials.login.flatMap { self.sites[$0] }
        // The verifier only looks up the request's own login, so it is given that one site (not a copy of all),
        // and checks the nonce against the ledger kept in place (no copy; lookups O(1), pruning amortized).
        var knownSites: [String: PlacetoPayAuthVerifier.Site] = [:]
        if let login = credentials.login, let site { knownSites[login] = site.verifierSite }
        let verifier = PlacetoPayAuthVerifier(
            sites: knownSites,
            options: .init(acceptsSHA1: site?.acceptsSHA1 ?? false))
        let verification = verifier.verify(credentials, now: wallNow, nonces: &self.nonces)
        // What a merchant's backend did wrong, from the verifier's own checks (findings, §1.2).
        if verification.replayed {
            MerchantFindings.report(PlacetoPayProvider.MerchantRules.nonceReused, "nonce '\(credentials.nonce ?? "")' was already used")
        }
        if verification.outcome == .failed(.seedOutOfWindow) {
            MerchantFindings.report(PlacetoPayProvider.MerchantRules.staleSeed, "seed '\(credentials.seed ?? "")' is more than 5 minutes from the server's clock")
        }
        if verification.algorithm == .sha1 {
            MerchantFindings.report(PlacetoPayProvider.MerchantRules.sha1TranKey, "tranKey was computed with SHA-1")
        }
        switch verification.outcome {
        case .ok:
            guard let site else { throw PlacetoPayFailure.authentication(.unknownLogin, locale: locale, at: now) }
            return site
        case .failed(let code):
            throw PlacetoPayFailure.authentication(code, locale: locale, at: now)
        }
    }

    /// The session `requestId` brought up to date with `now`, its changes committed; `nil` when unknown.
    mutating func refreshedSession(
        _ requestId: Int,
        now: Date,
        outbox: inout [PlacetoPayNotification]
    ) -> PlacetoPaySession? {
        guard var session = self.sessions[requestId] else { return nil }
        session.refresh(now: now)
        self.commit(session, outbox: &outbox)
        return self.sessions[requestId]
    }

    /// Stores `session`, tokenizing its card when a `subscribe` payment was approved, and queues its notification
    /// the first time it is final and its site has a notification URL (§1.9: exactly one, never retried).
    mutating func commit(_ session: PlacetoPaySession, outbox: inout [PlacetoPayNotification]) {
        var session = session
        if session.wantsToken, let approved = session.transactions.first(where: \.isApproved) {
            self.tokenize(&session, card: approved.card, at: approved.status.date)
        }
        if session.isFinal, !session.notified {
            session.notified = true
            if let site = self.sites[session.login], let url = site.notificationUrl {
                outbox.append(PlacetoPayNotification(session: session, site: site, url: url, trigger: .final))
            }
        }
        self.sessions[session.requestId] = session
        if let next = session.nextWakeUp, self.wakeUps[session.requestId] != next {
            self.wakeUps[session.requestId] = next
            self.unscheduledWakeUps.append((session.requestId, next))
        } else if session.isFinal {
            self.wakeUps[session.requestId] = nil
        }
    }

    /// Hands over the wake-ups decided since the last call.
    mutating func takeWakeUps() -> [(requestId: Int, at: Date)] {
        defer { self.unscheduledWakeUps = [] }
        return self.unscheduledWakeUps
    }

    /// Tokenizes `card` for `session` (§1.5 `subscription`, usable by `/api/collect`, §1.8).
    mutating func tokenize(_ session: inout PlacetoPaySession, card: PlacetoPayCard, at date: Date) {
        var stored = card
        stored.behaviour = card.behaviour.forStoredCredential
        let subscription = PlacetoPaySubscription(
            token: self.randomHex(64), subtoken: self.randomDigits(16), login: session.login, card: stored,
            status: .init(
                status: PlacetoPayStatus.Name.ok, reason: PlacetoPayStatus.Reason.approved,
                message: "The card has been tokenized successfully", date: date))
        self.tokens[subscription.token] = subscription
        self.tokenOfSubtoken[subscription.subtoken] = subscription.token
        session.subscription = subscription
    }

    /// Creates a `PENDING` session for `site`, with a new `requestId` and process URL (§1.4).
    mutating func newSession(
        _ request: PlacetoPaySessionRequest,
        site: PlacetoPaySite,
        now: Date,
        baseURL: String,
        isCollect: Bool
    ) -> PlacetoPaySession {
        let requestId = self.nextRequestId
        self.nextRequestId += 1
        let processUrl = "\(baseURL)/placetopay/session/\(requestId)/\(self.randomHex(32))"
        return PlacetoPaySession(
            requestId: requestId, login: site.login, processUrl: processUrl, request: request,
            locale: request.locale ?? site.locale, now: now, isCollect: isCollect)
    }

    /// A new transaction of `session` with `card` for `amount`, with the next `internalReference`; its status is
    /// set by ``PlacetoPaySession/addAttempt(_:outcome:now:)``.
    mutating func newTransaction(for session: PlacetoPaySession, card: PlacetoPayCard, amount: Double, now: Date)
        -> PlacetoPayTransaction
    {
        let internalReference = self.nextInternalReference
        self.nextInternalReference += 1
        self.sessionOfTransaction[internalReference] = session.requestId
        return PlacetoPayTransaction(
            internalReference: internalReference, reference: session.request.reference, card: card,
            currency: session.request.currency, total: amount, status: .transactionBankPending(at: now))
    }

    /// `count` random lowercase hex characters.
    func randomHex(_ count: Int) -> String {
        var text = ""
        while text.count < count {
            let word = String(self.random(), radix: 16)
            text += String(repeating: "0", count: 16 - word.count) + word
        }
        return String(text.prefix(count))
    }

    /// `count` random decimal digits.
    func randomDigits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(self.random() % 10)) })
    }
}
