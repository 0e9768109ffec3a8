import Foundation
import PayCheckProviders

/// The documented status × sub_status pairs of providers.md §3.6 and the only moves between them the mock makes.
///
/// §3.6 says: sync flows go `CREATED` → terminal inside the create answer; async flows pass through `PENDING` (and
/// `READY_TO_PAY` for APMs, which can become `EXPIRED`); `ERROR` can occur anywhere. The rows below spell that out
/// per event; events not triggered by an API call (the PSP's later answer, fraud screening, disputes, retries) are
/// the `mock: event` control action. Which event leads where is PayCheck's reading of §3.6 — docs/providers/yuno.md.
enum YunoTransitions {
    /// A status × sub_status pair, named without text.
    typealias P = YunoStatePair

    /// Every pair of §3.6.
    static let pairs: [YunoPaymentStatus: [YunoSubStatus]] = [
        .created: [.created],
        .readyToPay: [.created],
        .pending: [
            .authorized, .inProcess, .waitingAdditionalStep, .pendingProviderConfirmation, .pendingFraudReview,
            .pendingOTPCompletion,
        ],
        .verified: [.verified],
        .expired: [.expired],
        .rejected: [.rejected],
        .declined: [.declined, .fraudDeclined],
        .succeeded: [
            .approved, .partiallyApproved, .captured, .partiallyCaptured, .partiallyRefunded, .partiallyChargebacked,
            .fraudDeclined, .refundRetryInProcess, .captureRetryInProcess, .captureRetryProcessFailed,
        ],
        .refunded: [.pendingProviderConfirmation, .refunded],
        .canceled: [.pendingProviderConfirmation, .canceled],
        .inDispute: [.received, .pendingReview],
        .chargeback: [.lost],
        .error: [.error, .timeout, .pendingReverse, .reversedByTimeout],
        .fraud: [.fraudVerified],
    ]

    /// The states an async flow is still open in (§3.6): the ones `ERROR` and a merchant cancel can leave.
    static let open: Set<P> = [
        P(.created, .created), P(.readyToPay, .created), P(.pending, .inProcess), P(.pending, .waitingAdditionalStep),
        P(.pending, .pendingProviderConfirmation), P(.pending, .pendingFraudReview), P(.pending, .pendingOTPCompletion),
    ]

    /// A state a refund or a dispute can start from: the payment was paid (§3.6 `SUCCEEDED`).
    static let paid: Set<P> = [
        P(.succeeded, .approved), P(.succeeded, .captured), P(.succeeded, .partiallyCaptured),
        P(.succeeded, .partiallyApproved), P(.succeeded, .partiallyRefunded),
    ]

    /// One `mock: event`: from which states, to which one (`nil`: decided by the event's handler).
    struct Event {
        var name: String
        var from: Set<P>
        var to: P?
        var transaction: String
        var note: String
    }

    /// The events of `mock: event`, by name.
    static let events: [String: Event] = Dictionary(
        uniqueKeysWithValues: [
            Event(
                name: "gateway", from: [P(.created, .created)], to: nil, transaction: "PURCHASE",
                note: "the gateway answers now with the test card's or description's code (§3.10)"),
            Event(
                name: "reject", from: [P(.created, .created)], to: P(.rejected, .rejected), transaction: "PURCHASE",
                note: "Yuno rejects the payment before routing it (§3.6)"),
            Event(
                name: "partially_approve", from: [P(.created, .created)], to: P(.succeeded, .partiallyApproved), transaction: "PURCHASE",
                note: "the provider approves less than requested (§3.6)"),
            Event(
                name: "fraud_review", from: [P(.created, .created)], to: P(.pending, .pendingFraudReview), transaction: "FRAUD_SCREENING",
                note: "fraud screening holds the payment for review (§3.6)"),
            Event(
                name: "fraud_approve", from: [P(.pending, .pendingFraudReview)], to: nil, transaction: "PURCHASE",
                note: "the review passes; the gateway approves"),
            Event(
                name: "fraud_decline", from: [P(.pending, .pendingFraudReview), P(.succeeded, .approved), P(.succeeded, .captured)], to: nil,
                transaction: "FRAUD_SCREENING",
                note: "declined by fraud screening: before authorization DECLINED/FRAUD_DECLINED, after it SUCCEEDED/FRAUD_DECLINED (§3.6)"),
            Event(
                name: "provider_approve", from: [P(.pending, .pendingProviderConfirmation), P(.pending, .inProcess)], to: nil,
                transaction: "PURCHASE", note: "the provider confirms the payment"),
            Event(
                name: "provider_decline", from: [P(.pending, .pendingProviderConfirmation), P(.pending, .inProcess)], to: P(.declined, .declined),
                transaction: "PURCHASE", note: "the provider declines"),
            Event(
                name: "provider_confirm", from: [P(.refunded, .pendingProviderConfirmation), P(.canceled, .pendingProviderConfirmation)],
                to: nil, transaction: "", note: "the provider confirms a refund or a cancellation (§3.6)"),
            Event(
                name: "timeout", from: [P(.created, .created), P(.pending, .pendingProviderConfirmation)], to: P(.error, .timeout),
                transaction: "PURCHASE", note: "the provider did not answer in time (§3.6, seed guide: Apple Pay)"),
            Event(
                name: "reverse", from: [P(.error, .timeout)], to: P(.error, .pendingReverse), transaction: "CANCEL",
                note: "a reversal of the timed-out authorization is sent (§3.6)"),
            Event(
                name: "reversed", from: [P(.error, .pendingReverse)], to: P(.error, .reversedByTimeout), transaction: "CANCEL",
                note: "the reversal is confirmed (§3.6)"),
            Event(name: "error", from: open, to: P(.error, .error), transaction: "PURCHASE", note: "ERROR can occur anywhere in a flow (§3.6)"),
            Event(
                name: "retry_succeeded", from: [P(.succeeded, .captureRetryInProcess), P(.succeeded, .refundRetryInProcess)], to: nil,
                transaction: "", note: "Yuno's retry of a capture or refund goes through"),
            Event(
                name: "retry_failed", from: [P(.succeeded, .captureRetryInProcess), P(.succeeded, .refundRetryInProcess)], to: nil,
                transaction: "", note: "Yuno's retries give up: CAPTURE_RETRY_PROCESS_FAILED, or the refund is dropped"),
            Event(
                name: "authorization_expired", from: [P(.pending, .authorized)], to: P(.expired, .expired), transaction: "AUTHORIZE",
                note: "an authorization not captured in time expires (§3.6)"),
            Event(name: "dispute", from: paid, to: P(.inDispute, .received), transaction: "CHARGEBACK", note: "a dispute is received (§3.6)"),
            Event(
                name: "dispute_review", from: [P(.inDispute, .received)], to: P(.inDispute, .pendingReview), transaction: "CHARGEBACK",
                note: "the dispute is under review (§3.6)"),
            Event(
                name: "dispute_lost", from: [P(.inDispute, .pendingReview)], to: nil, transaction: "CHARGEBACK",
                note: "lost: CHARGEBACK/LOST, or SUCCEEDED/PARTIALLY_CHARGEBACKED for part of the amount (§3.6)"),
            Event(
                name: "dispute_won", from: [P(.inDispute, .pendingReview)], to: nil, transaction: "CHARGEBACK",
                note: "won: back to the sub_status before the dispute"),
        ].map { ($0.name, $0) })
}
