import Foundation
import PayCheckProviders

extension PlacetoPayStatus {
    /// The `reason` codes the mock uses. Documented ones cite providers.md; the rest are marked as choices.
    enum Reason {
        /// Request processed (create / cancel success), §1.4.
        static let processed = "PC"
        /// Approved, §1.5.
        static let approved = "00"
        /// Session pending, and transaction pending merchant confirmation, §1.5.
        static let pending = "PT"
        /// Transaction pending at the bank, §1.5 (legacy table `?-`).
        static let bankPending = "?-"
        /// Cancelled by the payer (session), or cancelled by the merchant (transaction `cancel`), §1.5, §1.7.
        static let cancelledByUser = "?C"
        /// Session cancelled by the merchant through the API, §1.5, §1.6.
        static let cancelledByMerchant = "MC"
        /// Session rejected after the failed-attempt limit; transaction with an invalid card number, §1.5.
        static let rejected = "XN"
        /// Partial-payment session with part paid, §1.5.
        static let partial = "P0"
        /// Partial-payment session expired partly paid, §1.5.
        static let partialExpired = "PX"
        /// Failed processing (transaction `FAILED`, action processed but failed), §1.3, §1.5.
        static let failed = "BR"
        /// Generic ISO decline of a transaction, §1.5 ("ISO-style codes like 05").
        static let declined = "05"
        /// ISO "expired card" decline. Choice: the mock rejects a card whose expiry is in the past with it.
        static let expiredCard = "54"
        /// Session that expired with nothing paid. Choice: the code is undocumented (providers.md §1.11, §1.13),
        /// so the mock uses `EX`; the same code marks a `PENDING_CONFIRMATION` transaction voided by expiry.
        static let expired = "EX"
    }

    /// `OK`/`PC` for a created session (§1.4 success example, OpenAPI `CreateSessionResponse`).
    static func processed(at date: Date) -> Self {
        Self(status: Name.ok, reason: Reason.processed, message: PlacetoPayMessages.Text.processed, date: date)
    }

    /// `OK`/`00` for a cancelled session: the cancel-session page's `CancelSessionResponse` example has reason
    /// `00`, not `PC`.
    static func cancelProcessed(at date: Date) -> Self {
        Self(status: Name.ok, reason: Reason.approved, message: PlacetoPayMessages.Text.processed, date: date)
    }

    /// `FAILED`/`BR` "Transaction already refunded" (refund page; §1.3 "action processed but failed", HTTP 200).
    static func alreadyRefunded(at date: Date) -> Self {
        Self(status: Name.failed, reason: Reason.failed, message: PlacetoPayMessages.Text.alreadyRefunded, date: date)
    }

    // MARK: Session statuses (providers.md §1.5)

    /// A new or still-open session.
    static func sessionPending(at date: Date) -> Self {
        Self(status: Name.pending, reason: Reason.pending, message: PlacetoPayMessages.Text.sessionPending, date: date)
    }

    /// A session with an approved payment.
    static func sessionApproved(at date: Date) -> Self {
        Self(status: Name.approved, reason: Reason.approved, message: PlacetoPayMessages.Text.sessionApproved, date: date)
    }

    /// A partial-payment session with part paid.
    static func sessionApprovedPartial(at date: Date) -> Self {
        Self(
            status: Name.approvedPartial, reason: Reason.partial,
            message: PlacetoPayMessages.Text.sessionApprovedPartial, date: date)
    }

    /// A session cancelled by the payer on the checkout page.
    static func sessionCancelledByPayer(at date: Date) -> Self {
        Self(
            status: Name.rejected, reason: Reason.cancelledByUser,
            message: PlacetoPayMessages.Text.sessionCancelledByPayer, date: date)
    }

    /// A session cancelled by the merchant through `/api/session/{id}/cancel` (§1.6).
    static func sessionCancelledByMerchant(at date: Date) -> Self {
        Self(
            status: Name.rejected, reason: Reason.cancelledByMerchant,
            message: PlacetoPayMessages.Text.sessionCancelledByMerchant, date: date)
    }

    /// A session that reached the failed-attempt limit (attempts-limit page: `REJECTED`/`XN`).
    static func sessionAttemptsExhausted(at date: Date) -> Self {
        Self(status: Name.rejected, reason: Reason.rejected, message: PlacetoPayMessages.Text.sessionRejected, date: date)
    }

    /// A one-shot (`/api/collect`) session whose only transaction was rejected.
    static func sessionRejected(at date: Date) -> Self {
        Self(status: Name.rejected, reason: Reason.rejected, message: PlacetoPayMessages.Text.sessionRejected, date: date)
    }

    /// A session that expired with nothing paid.
    static func sessionExpired(at date: Date) -> Self {
        Self(
            status: Name.rejected, reason: Reason.expired,
            message: PlacetoPayMessages.Text.sessionExpired, date: date)
    }

    /// A partial-payment session that expired partly paid.
    static func sessionPartialExpired(at date: Date) -> Self {
        Self(
            status: Name.partialExpired, reason: Reason.partialExpired,
            message: PlacetoPayMessages.Text.sessionPartialExpired, date: date)
    }

    // MARK: Transaction statuses (providers.md §1.5)

    /// An approved transaction.
    static func transactionApproved(at date: Date) -> Self {
        Self(status: Name.approved, reason: Reason.approved, message: PlacetoPayMessages.Text.approved, date: date)
    }

    /// A rejected transaction with an ISO-style `reason`.
    static func transactionRejected(reason: String, message: String, at date: Date) -> Self {
        Self(status: Name.rejected, reason: reason, message: message, date: date)
    }

    /// A transaction pending at the bank.
    static func transactionBankPending(at date: Date) -> Self {
        Self(
            status: Name.pending, reason: Reason.bankPending, message: PlacetoPayMessages.Text.transactionPending,
            date: date)
    }

    /// A transaction waiting for the merchant's `confirm` or `cancel` (metadata.requiresConfirmation, §1.4).
    static func transactionPendingConfirmation(at date: Date) -> Self {
        Self(
            status: Name.pendingConfirmation, reason: Reason.pending,
            message: PlacetoPayMessages.Text.pendingConfirmation, date: date)
    }

    /// A transaction that failed in processing (3DS-N exception card, §1.10).
    static func transactionFailed(at date: Date) -> Self {
        Self(status: Name.failed, reason: Reason.failed, message: PlacetoPayMessages.Text.transactionFailed, date: date)
    }

    /// A `PENDING_CONFIRMATION` transaction cancelled by the merchant (§1.7).
    static func transactionCancelledByMerchant(at date: Date) -> Self {
        Self(
            status: Name.rejected, reason: Reason.cancelledByUser, message: PlacetoPayMessages.Text.cancelledByMerchant,
            date: date)
    }

    /// A `PENDING_CONFIRMATION` transaction voided because its session expired.
    static func transactionExpired(at date: Date) -> Self {
        Self(
            status: Name.rejected, reason: Reason.expired, message: PlacetoPayMessages.Text.transactionExpired, date: date)
    }

    /// A transaction the payer aborted on the checkout page (OpenAPI dispersion example: `REJECTED`/`?C`).
    static func transactionAborted(at date: Date) -> Self {
        Self(
            status: Name.rejected, reason: Reason.cancelledByUser, message: PlacetoPayMessages.Text.paymentAborted,
            date: date)
    }
}
