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
        let (outcome, outbox) = self.store.withState {
            state -> (Swift.Result<Result, any Error>, [PlacetoPayNotification]) in
            var outbox: [PlacetoPayNotification] = []
            do {
                return (.success(try body(&state, &outbox)), outbox)
            } catch {
                return (.failure(error), outbox)
            }
        }
        for notification in outbox {
            _ = await self.deliver(notification)
        }
        return try outcome.get()
    }

    /// POSTs `notification` once (never retried, §1.9) and records the attempt, including a failure.
    func deliver(_ notification: PlacetoPayNotification) async -> PlacetoPayNotification.Delivery {
        let bodyText = JSONText.encode(notification.body)
        var responseStatus: Int?
        var failure: String?
        do {
            responseStatus = try await self.environment.outbound.post(
                url: notification.url, headers: [("Content-Type", "application/json")], body: Array(bodyText.utf8))
        } catch {
            failure = "\(error)"
        }
        let delivery = PlacetoPayNotification.Delivery(
            notification: notification, bodyText: bodyText, responseStatus: responseStatus, error: failure,
            sentAt: self.environment.clock.now())
        self.store.withState { $0.deliveries.append(delivery) }
        return delivery
    }
}
