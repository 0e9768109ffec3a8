import Foundation
import PayCheckProviders

/// One checkout session of the PlacetoPay mock: the create request, its status and its transactions
/// (providers.md §1.5; state per §1.12).
struct PlacetoPaySession: Sendable {
    /// Failed transactions after which a session is `REJECTED`/`XN` (§1.5 attempts limit, default 10).
    static let attemptsLimit = 10
    /// The lifetime of a session created without `expiration`: 30 minutes (§1.4).
    static let defaultLifetime: TimeInterval = 30 * 60

    /// The session id, `requestId`.
    let requestId: Int
    /// The site that created it; other sites cannot see it.
    let login: String
    /// `processUrl`, where the payer is sent (§1.4).
    let processUrl: String
    /// The validated create (or collect) request.
    let request: PlacetoPaySessionRequest
    /// The effective locale: the request's, else the site's (§1.4).
    let locale: String
    /// Creation time (mock clock).
    let createdAt: Date
    /// When the session expires unless final (mock clock).
    let expiresAt: Date
    /// Whether it was created by `/api/collect`: one attempt, no payer.
    let isCollect: Bool
    /// The session status.
    var status: PlacetoPayStatus
    /// Transactions, oldest first (the query lists them newest first).
    var transactions: [PlacetoPayTransaction] = []
    /// Rejected or failed transactions so far.
    var failedAttempts = 0
    /// The tokenization result, once a card was tokenized (`payment.subscribe` or a subscription session).
    var subscription: PlacetoPaySubscription?
    /// Whether the final-state notification was already produced (it is produced at most once, §1.9).
    var notified = false
    /// When the payer abandoned the checkout page, if they did (no state change; the session just expires).
    var abandonedAt: Date?

    /// Creates a `PENDING` session.
    init(
        requestId: Int,
        login: String,
        processUrl: String,
        request: PlacetoPaySessionRequest,
        locale: String,
        now: Date,
        isCollect: Bool
    ) {
        self.requestId = requestId
        self.login = login
        self.processUrl = processUrl
        self.request = request
        self.locale = locale
        self.createdAt = now
        self.expiresAt = request.expiration ?? now.addingTimeInterval(Self.defaultLifetime)
        self.isCollect = isCollect
        self.status = .sessionPending(at: now)
    }

    /// Whether the session is final (§1.5): it never changes state again.
    var isFinal: Bool { self.status.isFinal }

    /// The failed-attempt limit of this session: 10, or 1 for a collect charge.
    var attemptsLimit: Int { self.isCollect ? 1 : Self.attemptsLimit }

    /// The transaction still in progress (pending at the bank or awaiting confirmation), if any.
    var inProgressTransaction: PlacetoPayTransaction? {
        self.transactions.last(where: \.isInProgress)
    }

    /// The sum of approved transactions.
    var paidAmount: Double {
        self.transactions.filter(\.isApproved).reduce(0) { $0 + $1.total }
    }

    /// What is left to pay of the session total.
    var remainingAmount: Double {
        max(0, self.request.total - self.paidAmount)
    }

    /// Whether a `payment.subscribe` session has an approved transaction but no token yet.
    var wantsToken: Bool {
        self.request.subscribe && self.subscription == nil && self.transactions.contains(where: \.isApproved)
    }

    /// The index of the transaction `internalReference`, if it belongs to this session.
    func transactionIndex(_ internalReference: Int) -> Int? {
        self.transactions.firstIndex { $0.internalReference == internalReference }
    }

    /// Whether the merchant may cancel the session (§1.6): pending, with no approved and no in-progress payment.
    func isMerchantCancellable() -> Bool {
        !self.isFinal && self.status.status == PlacetoPayStatus.Name.pending && self.inProgressTransaction == nil
            && !self.transactions.contains(where: \.isApproved)
    }
}
