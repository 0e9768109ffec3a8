/// The answer of ``IdempotencyStore/claim(_:fingerprint:)``, for providers that run their operation themselves.
package enum IdempotencyClaim<Stored: Sendable>: Sendable {
    /// The key is new and now reserved for this request: run the operation, then call
    /// ``IdempotencyStore/complete(_:with:)`` (or ``IdempotencyStore/release(_:)`` to leave the key unused).
    case proceed(IdempotencyTicket)
    /// The same request was made before: answer with the stored result.
    case replay(Stored)
    /// The key cannot be used for this request.
    case conflict(IdempotencyConflict)
}
