import Foundation
import PayCheckProviders

/// The session state machine of providers.md §1.5, evaluated lazily against the mock clock.
///
/// PENDING/PT → APPROVED/00 (approved transaction) · APPROVED_PARTIAL/P0 (partial payment) → APPROVED or
/// PARTIAL_EXPIRED/PX · PENDING stays PENDING after a rejected try with attempts left or a pending transaction ·
/// → REJECTED/?C (payer cancel), /MC (merchant cancel), /XN (attempt limit), /EX (expiry; reason is a choice).
/// Final sessions never change again; later refunds only flip `payment[].refunded`.
extension PlacetoPaySession {
    /// Applies everything due by `now`: bank-pending transactions that resolve, then expiry.
    mutating func refresh(now: Date) {
        while let (index, resolution) = self.nextResolution(by: now) {
            self.transactions[index].resolution = nil
            if resolution.approves {
                self.applyApproval(index, at: resolution.at)
            } else {
                self.transactions[index].status = .transactionRejected(
                    reason: PlacetoPayStatus.Reason.declined, message: PlacetoPayMessages.Text.rejected, at: resolution.at)
                self.countFailure(at: resolution.at)
            }
        }
        self.expireIfDue(now: now)
    }

    /// Records a new attempt `transaction` whose card gave `outcome` at `now`.
    mutating func addAttempt(_ transaction: PlacetoPayTransaction, outcome: PlacetoPayTestCard.Outcome, now: Date) {
        self.transactions.append(transaction)
        let index = self.transactions.count - 1
        switch outcome {
        case .approved:
            self.applyApproval(index, at: now)
        case .rejected(let reason, let message):
            self.transactions[index].status = .transactionRejected(reason: reason, message: message, at: now)
            self.countFailure(at: now)
        case .pending(let delay, let approves):
            self.transactions[index].status = .transactionBankPending(at: now)
            self.transactions[index].resolution = .init(at: now.addingTimeInterval(delay), approves: approves)
        case .failed:
            self.transactions[index].status = .transactionFailed(at: now)
            self.countFailure(at: now)
        }
    }

    /// Approves transaction `index` at `date`, or holds it in `PENDING_CONFIRMATION` when the session was created
    /// with `metadata.requiresConfirmation` (§1.4).
    mutating func applyApproval(_ index: Int, at date: Date) {
        if self.request.requiresConfirmation {
            self.transactions[index].status = .transactionPendingConfirmation(at: date)
        } else {
            self.markApproved(index, at: date)
        }
    }

    /// Makes transaction `index` `APPROVED` and moves the session to `APPROVED` or, for a partial payment of an
    /// `allowPartial` session, `APPROVED_PARTIAL` (§1.5).
    mutating func markApproved(_ index: Int, at date: Date) {
        self.transactions[index].status = .transactionApproved(at: date)
        guard !self.isFinal else { return }
        if self.request.allowPartial, self.paidAmount + PlacetoPayTransaction.amountTolerance < self.request.total {
            self.status = .sessionApprovedPartial(at: date)
        } else {
            self.status = .sessionApproved(at: date)
        }
    }

    /// Records a tokenization attempt of a `subscription` session: success approves the session, failure counts
    /// towards the attempt limit (§1.5 "rejected transactions/tokenizations").
    mutating func applyTokenization(succeeded: Bool, at date: Date) {
        if succeeded {
            self.status = .sessionApproved(at: date)
        } else {
            self.countFailure(at: date)
        }
    }

    /// When the session next changes without a request: the earliest bank resolution, else its expiry; `nil` once
    /// final. The mock schedules a job then, so the expiry notification goes out when the session expires
    /// (driven by the mock clock), not on the next read.
    var nextWakeUp: Date? {
        guard !self.isFinal else { return nil }
        return self.transactions.compactMap(\.resolution?.at).min() ?? self.expiresAt
    }

    /// Cancels the `PENDING_CONFIRMATION` transaction `index` for the merchant (§1.7); not a failed attempt.
    /// The session then ends `REJECTED` (confirmation-flow page and its state diagram, `ConfirmationFlowStates.jsx`:
    /// "Merchant Cancels / Expiration → REJECTED"), so the payer cannot pay it again and the site is notified.
    /// Choice: the session's reason is `MC`, the merchant-cancellation code of the cancel-session page.
    mutating func cancelConfirmation(_ index: Int, at date: Date) {
        self.transactions[index].status = .transactionCancelledByMerchant(at: date)
        guard !self.isFinal, !self.transactions.contains(where: \.isApproved) else { return }
        self.status = .sessionCancelledByMerchant(at: date)
    }

    /// Counts a rejected or failed transaction; the attempt limit makes the session `REJECTED`/`XN` (§1.5).
    private mutating func countFailure(at date: Date) {
        self.failedAttempts += 1
        guard !self.isFinal, self.failedAttempts >= self.attemptsLimit else { return }
        self.status =
            self.isCollect ? .sessionRejected(at: date) : .sessionAttemptsExhausted(at: date)
    }

    /// The earliest bank-pending transaction that resolves by `now`.
    private func nextResolution(by now: Date) -> (Int, PlacetoPayTransaction.Resolution)? {
        var next: (Int, PlacetoPayTransaction.Resolution)?
        for (index, transaction) in self.transactions.enumerated() {
            guard let resolution = transaction.resolution, resolution.at <= now else { continue }
            if next.map({ resolution.at < $0.1.at }) ?? true {
                next = (index, resolution)
            }
        }
        return next
    }

    /// Expires the session once `now` passes `expiresAt` (§1.4, §1.5).
    ///
    /// Choice: a transaction pending at the bank holds expiry back until it resolves (the bank, not the
    /// checkout, decides it); a `PENDING_CONFIRMATION` transaction does not, and is voided, so a later
    /// `confirm` fails with "The transaction has already expired" (§1.3).
    private mutating func expireIfDue(now: Date) {
        guard !self.isFinal, now >= self.expiresAt, !self.transactions.contains(where: \.isBankPending) else { return }
        let at = max(self.expiresAt, self.transactions.map(\.status.date).max() ?? self.expiresAt)
        for index in self.transactions.indices where self.transactions[index].isAwaitingConfirmation {
            self.transactions[index].status = .transactionExpired(at: at)
            self.transactions[index].voidedByExpiry = true
        }
        let partlyPaid = self.status.status == PlacetoPayStatus.Name.approvedPartial
        self.status = partlyPaid ? .sessionPartialExpired(at: at) : .sessionExpired(at: at)
    }
}
