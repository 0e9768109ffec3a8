/// The reservation of an idempotency key by the one request allowed to run; completes or releases it.
public struct IdempotencyTicket: Hashable, Sendable {
    /// The reserved key.
    public let key: IdempotencyKey
    /// Distinguishes this reservation from a later one of the same key (after a release or a reset).
    let token: Int
}
