/// The reservation of an idempotency key by the one request allowed to run; completes or releases it.
package struct IdempotencyTicket: Hashable, Sendable {
    /// The reserved key.
    package let key: IdempotencyKey
    /// Distinguishes this reservation from a later one of the same key (after a release or a reset).
    let token: Int
}
