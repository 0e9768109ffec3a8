/// The name of a mock-clock scope: which ``MockClock`` a request, a resource or a scheduled job reads "now" from.
///
/// Two runs (or two CI shards) that share one standalone mock would otherwise see each other's time travel. Each
/// run picks a scope id (for example its run id or shard name) and sends it on every request, provider and
/// control alike, in the ``headerName`` header:
///
/// ```
/// POST /__paycheck/clock              X-PayCheck-Clock-Scope: run-42-shard-1   {"advance": "31m"}
/// POST /placetopay/api/session/7      X-PayCheck-Clock-Scope: run-42-shard-1   {...}
/// ```
///
/// Requests without the header use ``default``, the host's own clock, so a single run that never sends the
/// header behaves exactly as before. While a request is handled (and while a job scheduled during it runs), the
/// scope is bound to ``current``, which is how ``MockEnvironment/clock`` finds the right clock without every
/// provider route having to read the header itself.
package struct ClockScope: Hashable, Sendable, CustomStringConvertible {
    /// The request header that names the scope of a request: `X-PayCheck-Clock-Scope`.
    package static let headerName = ControlAPI.clockScopeHeader
    /// The longest accepted scope id.
    package static let maximumLength = 128
    /// The scope of requests that do not name one: the host's own clock.
    package static let `default` = ClockScope(uncheckedID: "default")

    /// The scope bound to the current task: the request's scope inside a route, the job's scope inside a job.
    @TaskLocal package static var current: ClockScope = .default

    /// The scope id, e.g. `run-42-shard-1`.
    package let id: String

    /// Creates a scope from an id of 1 to ``maximumLength`` characters among letters, digits and `-_.:`;
    /// `nil` for any other id.
    package init?(_ id: String) {
        guard Self.isValid(id) else { return nil }
        self.id = id
    }

    /// Creates a scope from an id known to be valid.
    private init(uncheckedID id: String) {
        self.id = id
    }

    /// The id.
    package var description: String { self.id }

    /// Whether `id` is usable as a scope id (see ``init(_:)``).
    static func isValid(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= self.maximumLength else { return false }
        return id.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "-_.:".unicodeScalars.contains(scalar))
        }
    }
}
