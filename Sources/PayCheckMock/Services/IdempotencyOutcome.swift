/// What ``IdempotencyStore/perform(_:fingerprint:_:)`` did with a request.
package enum IdempotencyOutcome<Stored: Sendable>: Sendable {
    /// The key was new: the operation ran and its result is now stored.
    case created(Stored)
    /// The same request was made before with this key: the stored result, replayed; the operation did not run.
    case replayed(Stored)
    /// The key belongs to another request, or to one still in flight; the operation did not run.
    case conflict(IdempotencyConflict)

    /// The result to answer with, or `nil` for a conflict.
    package var stored: Stored? {
        switch self {
        case .created(let stored), .replayed(let stored): stored
        case .conflict: nil
        }
    }
}
