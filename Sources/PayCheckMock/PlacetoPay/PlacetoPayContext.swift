import Foundation
import PayCheckCore

/// What the PlacetoPay routes share: the store and the host environment (clock, outbound HTTP, base URL).
struct PlacetoPayContext: Sendable {
    /// The mock's state.
    let store: PlacetoPayStore
    /// The host's services.
    let environment: MockEnvironment

    /// Runs `body` on the state under the lock, then sends the notifications it queued, one by one, before
    /// returning or throwing. Sending synchronously makes the request that finalized a session return only after
    /// the merchant was notified (deterministic for suites; no fire-and-forget task).
    func transact<Result: Sendable>(
        _ body: (inout PlacetoPayState, inout [PlacetoPayNotification]) throws -> Result
    ) async throws -> Result {
        let (outcome, outbox, wakeUps) = self.store.withState {
            state -> (Swift.Result<Result, any Error>, [PlacetoPayNotification], [(requestId: Int, at: Date)]) in
            var outbox: [PlacetoPayNotification] = []
            let outcome: Swift.Result<Result, any Error>
            do {
                outcome = .success(try body(&state, &outbox))
            } catch {
                outcome = .failure(error)
            }
            return (outcome, outbox, state.takeWakeUps())
        }
        for wakeUp in wakeUps {
            self.schedule(wakeUp.requestId, at: wakeUp.at)
        }
        for notification in outbox {
            _ = await self.deliver(notification)
        }
        return try outcome.get()
    }

    /// Brings session `requestId` up to date when the mock clock of the current scope reaches `date`: a bank
    /// resolution or the expiry happens then, and its notification is sent at that moment (§1.9).
    private func schedule(_ requestId: Int, at date: Date) {
        let context = self
        self.environment.scheduler.schedule(at: date, label: "placetopay session \(requestId)") {
            await context.wake(requestId)
        }
    }

    /// The scheduled job of ``schedule(_:at:)``.
    private func wake(_ requestId: Int) async {
        let now = self.environment.clock.now()
        _ = try? await self.transact { state, outbox in
            _ = state.refreshedSession(requestId, now: now, outbox: &outbox)
        }
    }

    /// Hands `notification` to the host's webhook dispatcher, which POSTs it at once (awaited) and retries it on
    /// the mock clock per the site's schedule (none by default, §1.9); every attempt is added to the PlacetoPay
    /// log. Returns the first attempt.
    func deliver(_ notification: PlacetoPayNotification) async -> PlacetoPayNotification.Delivery {
        let bodyText = JSONText.encode(notification.body)
        let store = self.store
        let webhook = Webhook(
            provider: "placetopay", url: notification.url, headers: [("Content-Type", "application/json")],
            body: Array(bodyText.utf8), schedule: notification.retries)
        let first = await self.environment.webhooks.deliver(webhook) { attempt in
            let delivery = PlacetoPayNotification.Delivery(
                notification: notification, bodyText: bodyText, responseStatus: attempt.status, error: attempt.error,
                sentAt: attempt.sentAt)
            store.withState { $0.deliveries.append(delivery) }
        }
        return PlacetoPayNotification.Delivery(
            notification: notification, bodyText: bodyText, responseStatus: first.status, error: first.error,
            sentAt: first.sentAt)
    }
}
