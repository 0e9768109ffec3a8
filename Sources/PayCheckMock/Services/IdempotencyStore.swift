import Synchronization

/// Idempotency keys of every provider mock, shared by the host: one entry per ``IdempotencyKey`` (provider, clock
/// scope, client key), remembering the request's ``RequestFingerprint`` and, once done, the stored result.
///
/// - The first request with a key runs; its result is stored (``IdempotencyOutcome/created(_:)``).
/// - The same key with the same fingerprint later gets the stored result back (``IdempotencyOutcome/replayed(_:)``).
/// - The same key with another fingerprint is a ``IdempotencyConflict/differentRequest`` conflict.
/// - The same key while the first request still runs is an ``IdempotencyConflict/inFlight`` conflict.
///
/// Claiming is atomic, so concurrent requests with one key create exactly one resource. `Stored` is whatever the
/// provider replays, usually a ``HTTPResponseData`` (status, headers, body bytes).
package final class IdempotencyStore<Stored: Sendable>: Sendable {
    /// One key's entry.
    private enum Entry: Sendable {
        /// Reserved by the request holding ticket `token`.
        case inFlight(RequestFingerprint, token: Int)
        /// Done; replays `Stored` to the same request.
        case completed(RequestFingerprint, Stored)
    }

    /// What the lock guards.
    private struct State: Sendable {
        /// The entries.
        var entries: [IdempotencyKey: Entry] = [:]
        /// The token of the next ticket.
        var nextToken = 1
    }

    /// The entries.
    private let state = Mutex(State())

    /// Creates an empty store.
    package init() {}

    /// Runs `operation` for the first request with `key`, replays its result to the same request later, and
    /// refuses conflicting requests without running `operation`.
    ///
    /// When `operation` throws, the key is released (not consumed) and the error is rethrown: the next request with
    /// the key runs afresh. A provider whose keys burn on failure stores a failure result instead of throwing.
    package func perform(
        _ key: IdempotencyKey,
        fingerprint: RequestFingerprint,
        _ operation: () async throws -> Stored
    ) async rethrows -> IdempotencyOutcome<Stored> {
        switch self.claim(key, fingerprint: fingerprint) {
        case .replay(let stored):
            return .replayed(stored)
        case .conflict(let conflict):
            return .conflict(conflict)
        case .proceed(let ticket):
            let stored: Stored
            do {
                stored = try await operation()
            } catch {
                self.release(ticket)
                throw error
            }
            self.complete(ticket, with: stored)
            return .created(stored)
        }
    }

    /// Reserves `key` for this request, or says why not; see ``IdempotencyClaim``.
    package func claim(_ key: IdempotencyKey, fingerprint: RequestFingerprint) -> IdempotencyClaim<Stored> {
        self.state.withLock { state in
            switch state.entries[key] {
            case nil:
                let token = state.nextToken
                state.nextToken += 1
                state.entries[key] = .inFlight(fingerprint, token: token)
                return .proceed(IdempotencyTicket(key: key, token: token))
            case .inFlight(let first, _):
                return .conflict(first == fingerprint ? .inFlight : .differentRequest)
            case .completed(let first, let stored):
                return first == fingerprint ? .replay(stored) : .conflict(.differentRequest)
            }
        }
    }

    /// Stores the result of the request holding `ticket`; ignored when the reservation is gone (after a reset).
    package func complete(_ ticket: IdempotencyTicket, with stored: Stored) {
        self.state.withLock { state in
            guard case .inFlight(let fingerprint, let token) = state.entries[ticket.key], token == ticket.token
            else { return }
            state.entries[ticket.key] = .completed(fingerprint, stored)
        }
    }

    /// Gives the key up unused, so that the next request with it runs; ignored when the reservation is gone.
    package func release(_ ticket: IdempotencyTicket) {
        self.state.withLock { state in
            guard case .inFlight(_, let token) = state.entries[ticket.key], token == ticket.token else { return }
            state.entries[ticket.key] = nil
        }
    }

    /// How many keys are reserved or done.
    package var count: Int {
        self.state.withLock { $0.entries.count }
    }

    /// Forgets every key (`POST /__paycheck/reset`).
    package func reset() {
        self.state.withLock { $0.entries.removeAll() }
    }
}
