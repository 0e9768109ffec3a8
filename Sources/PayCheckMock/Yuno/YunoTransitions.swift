import Foundation

/// The documented status × sub_status pairs of providers.md §3.6 and the only moves between them the mock makes.
///
/// §3.6 says: sync flows go `CREATED` → terminal inside the create answer; async flows pass through `PENDING` (and
/// `READY_TO_PAY` for APMs, which can become `EXPIRED`); `ERROR` can occur anywhere. The rows below spell that out
/// per event; events not triggered by an API call (the PSP's later answer, fraud screening, disputes, retries) are
/// the `mock: event` control action. Which event leads where is PayCheck's reading of §3.6 — docs/providers/yuno.md.
enum YunoTransitions {
    /// Every pair of §3.6.
    static let pairs: [String: [String]] = [
        "CREATED": ["CREATED"],
        "READY_TO_PAY": ["CREATED"],
        "PENDING": ["AUTHORIZED", "IN_PROCESS", "WAITING_ADDITIONAL_STEP", "PENDING_PROVIDER_CONFIRMATION", "PENDING_FRAUD_REVIEW",
                    "PENDING_OTP_COMPLETION"],
        "VERIFIED": ["VERIFIED"],
        "EXPIRED": ["EXPIRED"],
        "REJECTED": ["REJECTED"],
        "DECLINED": ["DECLINED", "FRAUD_DECLINED"],
        "SUCCEEDED": ["APPROVED", "PARTIALLY_APPROVED", "CAPTURED", "PARTIALLY_CAPTURED", "PARTIALLY_REFUNDED", "PARTIALLY_CHARGEBACKED",
                      "FRAUD_DECLINED", "REFUND_RETRY_IN_PROCESS", "CAPTURE_RETRY_IN_PROCESS", "CAPTURE_RETRY_PROCESS_FAILED"],
        "REFUNDED": ["PENDING_PROVIDER_CONFIRMATION", "REFUNDED"],
        "CANCELED": ["PENDING_PROVIDER_CONFIRMATION", "CANCELED"],
        "IN_DISPUTE": ["RECEIVED", "PENDING_REVIEW"],
        "CHARGEBACK": ["LOST"],
        "ERROR": ["ERROR", "TIMEOUT", "PENDING_REVERSE", "REVERSED_BY_TIMEOUT"],
        "FRAUD": ["FRAUD_VERIFIED"],
    ]

    /// The states an async flow is still open in (§3.6): the ones `ERROR` and a merchant cancel can leave.
    static let open: Set<String> = [
        "CREATED/CREATED", "READY_TO_PAY/CREATED", "PENDING/IN_PROCESS", "PENDING/WAITING_ADDITIONAL_STEP",
        "PENDING/PENDING_PROVIDER_CONFIRMATION", "PENDING/PENDING_FRAUD_REVIEW", "PENDING/PENDING_OTP_COMPLETION",
    ]

    /// A state a refund or a dispute can start from: the payment was paid (§3.6 `SUCCEEDED`).
    static let paid: Set<String> = ["SUCCEEDED/APPROVED", "SUCCEEDED/CAPTURED", "SUCCEEDED/PARTIALLY_CAPTURED",
                                    "SUCCEEDED/PARTIALLY_APPROVED", "SUCCEEDED/PARTIALLY_REFUNDED"]

    /// One `mock: event`: from which states, to which one (`nil`: decided by the event's handler).
    struct Event {
        var name: String
        var from: Set<String>
        var to: String?
        var transaction: String
        var note: String
    }

    /// The events of `mock: event`, by name.
    static let events: [String: Event] = Dictionary(uniqueKeysWithValues: [
        Event(name: "gateway", from: ["CREATED/CREATED"], to: nil, transaction: "PURCHASE",
              note: "the gateway answers now with the test card's or description's code (§3.10)"),
        Event(name: "reject", from: ["CREATED/CREATED"], to: "REJECTED/REJECTED", transaction: "PURCHASE",
              note: "Yuno rejects the payment before routing it (§3.6)"),
        Event(name: "partially_approve", from: ["CREATED/CREATED"], to: "SUCCEEDED/PARTIALLY_APPROVED", transaction: "PURCHASE",
              note: "the provider approves less than requested (§3.6)"),
        Event(name: "fraud_review", from: ["CREATED/CREATED"], to: "PENDING/PENDING_FRAUD_REVIEW", transaction: "FRAUD_SCREENING",
              note: "fraud screening holds the payment for review (§3.6)"),
        Event(name: "fraud_approve", from: ["PENDING/PENDING_FRAUD_REVIEW"], to: nil, transaction: "PURCHASE",
              note: "the review passes; the gateway approves"),
        Event(name: "fraud_decline", from: ["PENDING/PENDING_FRAUD_REVIEW", "SUCCEEDED/APPROVED", "SUCCEEDED/CAPTURED"], to: nil,
              transaction: "FRAUD_SCREENING",
              note: "declined by fraud screening: before authorization DECLINED/FRAUD_DECLINED, after it SUCCEEDED/FRAUD_DECLINED (§3.6)"),
        Event(name: "provider_approve", from: ["PENDING/PENDING_PROVIDER_CONFIRMATION", "PENDING/IN_PROCESS"], to: nil,
              transaction: "PURCHASE", note: "the provider confirms the payment"),
        Event(name: "provider_decline", from: ["PENDING/PENDING_PROVIDER_CONFIRMATION", "PENDING/IN_PROCESS"], to: "DECLINED/DECLINED",
              transaction: "PURCHASE", note: "the provider declines"),
        Event(name: "provider_confirm", from: ["REFUNDED/PENDING_PROVIDER_CONFIRMATION", "CANCELED/PENDING_PROVIDER_CONFIRMATION"],
              to: nil, transaction: "", note: "the provider confirms a refund or a cancellation (§3.6)"),
        Event(name: "timeout", from: ["CREATED/CREATED", "PENDING/PENDING_PROVIDER_CONFIRMATION"], to: "ERROR/TIMEOUT",
              transaction: "PURCHASE", note: "the provider did not answer in time (§3.6, seed guide: Apple Pay)"),
        Event(name: "reverse", from: ["ERROR/TIMEOUT"], to: "ERROR/PENDING_REVERSE", transaction: "CANCEL",
              note: "a reversal of the timed-out authorization is sent (§3.6)"),
        Event(name: "reversed", from: ["ERROR/PENDING_REVERSE"], to: "ERROR/REVERSED_BY_TIMEOUT", transaction: "CANCEL",
              note: "the reversal is confirmed (§3.6)"),
        Event(name: "error", from: open, to: "ERROR/ERROR", transaction: "PURCHASE", note: "ERROR can occur anywhere in a flow (§3.6)"),
        Event(name: "retry_succeeded", from: ["SUCCEEDED/CAPTURE_RETRY_IN_PROCESS", "SUCCEEDED/REFUND_RETRY_IN_PROCESS"], to: nil,
              transaction: "", note: "Yuno's retry of a capture or refund goes through"),
        Event(name: "retry_failed", from: ["SUCCEEDED/CAPTURE_RETRY_IN_PROCESS", "SUCCEEDED/REFUND_RETRY_IN_PROCESS"], to: nil,
              transaction: "", note: "Yuno's retries give up: CAPTURE_RETRY_PROCESS_FAILED, or the refund is dropped"),
        Event(name: "authorization_expired", from: ["PENDING/AUTHORIZED"], to: "EXPIRED/EXPIRED", transaction: "AUTHORIZE",
              note: "an authorization not captured in time expires (§3.6)"),
        Event(name: "dispute", from: paid, to: "IN_DISPUTE/RECEIVED", transaction: "CHARGEBACK", note: "a dispute is received (§3.6)"),
        Event(name: "dispute_review", from: ["IN_DISPUTE/RECEIVED"], to: "IN_DISPUTE/PENDING_REVIEW", transaction: "CHARGEBACK",
              note: "the dispute is under review (§3.6)"),
        Event(name: "dispute_lost", from: ["IN_DISPUTE/PENDING_REVIEW"], to: nil, transaction: "CHARGEBACK",
              note: "lost: CHARGEBACK/LOST, or SUCCEEDED/PARTIALLY_CHARGEBACKED for part of the amount (§3.6)"),
        Event(name: "dispute_won", from: ["IN_DISPUTE/PENDING_REVIEW"], to: nil, transaction: "CHARGEBACK",
              note: "won: back to the sub_status before the dispute"),
    ].map { ($0.name, $0) })
}
