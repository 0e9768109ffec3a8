import Foundation

/// What a PlacetoPay test card does when the payer pays with it (providers.md §1.10).
///
/// The card number alone drives the outcome, except `4110760000000057` (amount) and `4012888888881881`
/// (expiry 11/28 and CVV 917). Every number outside the table is rejected with `XN` "invalid card number":
/// a real test environment only knows its test cards (choice; §1.5 legacy table `XN`).
enum PlacetoPayTestCard: Sendable, Equatable {
    /// Approves.
    case approve
    /// Approves after a frictionless 3-D Secure check (Y).
    case approveFrictionless
    /// 3-D Secure challenge (C): approves with OTP `12345`, rejects otherwise.
    case challenge
    /// Rejects with `05`.
    case deny
    /// Pending at the bank, approved once the mock clock passes ``pendingDelay``.
    case pendingThenApproved
    /// Pending at the bank, rejected once the mock clock passes ``pendingDelay``.
    case pendingThenRejected
    /// 3-D Secure challenge (C), then pending → approved; a wrong OTP rejects at once.
    case challengeThenPendingApproved
    /// 3-D Secure attempted (A), then pending → rejected.
    case attemptedThenPendingRejected
    /// 3-D Secure not available (N): the transaction fails (`FAILED`/`BR`).
    case exception
    /// Pending for ``delayedDelay`` (180 s), then approved.
    case delayedApproved
    /// Pending for ``delayedDelay`` (180 s), then rejected.
    case delayedRejected
    /// Approves amounts below 200 USD.
    case approvesBelow200USD
    /// Approves only with expiry 11/28 and CVV 917.
    case approvesWithExpiryAndCVV
    /// Not a test card.
    case unknown

    /// The documented test cards by number (§1.10).
    static let table: [String: PlacetoPayTestCard] = [
        "4110760000000081": .approve, "4110770010002837": .approve, "4381080000000029": .approve,
        "4111111111111111": .approveFrictionless, "4110760000000008": .challenge,
        "4110760000000016": .deny, "4005580000000040": .deny, "4716375184092180": .deny, "4381080000000011": .deny,
        "4110760000000073": .pendingThenApproved,
        "4048370000000037": .pendingThenRejected, "4381080000000003": .pendingThenRejected,
        "4110760000000032": .challengeThenPendingApproved, "4110760000000040": .attemptedThenPendingRejected,
        "4110760000000065": .exception,
        "4110760000000024": .delayedApproved, "4110760000000115": .delayedRejected,
        "4110760000000057": .approvesBelow200USD, "4012888888881881": .approvesWithExpiryAndCVV,
        "5367680000000005": .approve, "5180300000000005": .approve, "5292594382060745": .approveFrictionless,
        "377222581193005": .approve, "376651792202224": .deny,
        "36545400000008": .approve, "36545400000248": .deny, "36545407032806": .pendingThenApproved,
    ]

    /// The OTP that passes a 3-D Secure challenge (§1.10).
    static let challengeOTP = "12345"
    /// How long "pending → approved/rejected" cards stay pending. Choice: the docs give no delay; 60 s of mock
    /// time makes the resolution deterministic (advance the mock clock to see it).
    static let pendingDelay: TimeInterval = 60
    /// How long the "180 s delay" cards stay pending (§1.10).
    static let delayedDelay: TimeInterval = 180
    /// The limit of `4110760000000057`, in USD.
    static let amountLimitUSD = 200.0

    /// The behaviour of the card `number` (digits only).
    init(number: String) {
        self = Self.table[number] ?? .unknown
    }

    /// What one payment attempt with the card needs to know.
    struct Attempt: Sendable {
        /// The 3-D Secure OTP the payer typed, if any.
        var otp: String?
        /// The expiry the payer typed.
        var expiry: PlacetoPayCard.Expiry?
        /// The CVV the payer typed.
        var cvv: String?
        /// The amount charged.
        var amount: Double
        /// The currency of the amount.
        var currency: String
    }

    /// The result of one attempt, before `metadata.requiresConfirmation` is applied.
    enum Outcome: Sendable, Equatable {
        /// Approved now.
        case approved
        /// Rejected now with an ISO-style reason.
        case rejected(reason: String, message: String)
        /// Pending at the bank; resolves after `after` seconds of mock time.
        case pending(after: TimeInterval, approves: Bool)
        /// Failed in processing (`FAILED`/`BR`).
        case failed
    }

    /// The outcome of `attempt`.
    func outcome(_ attempt: Attempt) -> Outcome {
        let declined = Outcome.rejected(reason: PlacetoPayStatus.Reason.declined, message: PlacetoPayMessages.Text.rejected)
        let challengeFailed = Outcome.rejected(
            reason: PlacetoPayStatus.Reason.declined, message: "Rejected: 3-D Secure authentication failed")
        switch self {
        case .approve, .approveFrictionless:
            return .approved
        case .challenge:
            return attempt.otp == Self.challengeOTP ? .approved : challengeFailed
        case .deny:
            return declined
        case .pendingThenApproved:
            return .pending(after: Self.pendingDelay, approves: true)
        case .pendingThenRejected, .attemptedThenPendingRejected:
            return .pending(after: Self.pendingDelay, approves: false)
        case .challengeThenPendingApproved:
            return attempt.otp == Self.challengeOTP
                ? .pending(after: Self.pendingDelay, approves: true) : challengeFailed
        case .exception:
            return .failed
        case .delayedApproved:
            return .pending(after: Self.delayedDelay, approves: true)
        case .delayedRejected:
            return .pending(after: Self.delayedDelay, approves: false)
        case .approvesBelow200USD:
            // Choice: no exchange rates; the amount is compared with 200 whatever the currency.
            return attempt.amount < Self.amountLimitUSD
                ? .approved
                : .rejected(reason: PlacetoPayStatus.Reason.declined, message: "Rejected: amount over the card's limit")
        case .approvesWithExpiryAndCVV:
            let expiryMatches = attempt.expiry.map { $0.month == 11 && $0.year == 2028 } ?? false
            return expiryMatches && attempt.cvv == "917"
                ? .approved
                : .rejected(
                    reason: PlacetoPayStatus.Reason.declined, message: "Rejected: wrong expiry date or security code")
        case .unknown:
            return .rejected(reason: PlacetoPayStatus.Reason.rejected, message: "Invalid card number: not a test card")
        }
    }

    /// The behaviour kept with a token: charges with stored credentials (`/api/collect`) have no 3-D Secure
    /// challenge and no CVV, so the cards that needed them (and passed at tokenization) simply approve.
    var forStoredCredential: PlacetoPayTestCard {
        switch self {
        case .challenge, .approvesWithExpiryAndCVV: .approve
        case .challengeThenPendingApproved: .pendingThenApproved
        default: self
        }
    }
}
