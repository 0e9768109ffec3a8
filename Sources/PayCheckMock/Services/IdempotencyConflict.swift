/// Why the ``IdempotencyStore`` refused a request; each provider maps it to its own error (e.g. Yuno's
/// `400 REQUEST_IN_PROCESS`, providers.md §3.2).
package enum IdempotencyConflict: Sendable, Equatable {
    /// The first request with this key is still being processed.
    case inFlight
    /// The key was already used for a different request.
    case differentRequest
}
