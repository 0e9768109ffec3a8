/// Why a case did not run (or, for `xfail:`, why its failure was expected): its kind, which reports and coverage
/// read, and the specific words, which readers see after the kind's lead. Each kind's words are written here once.
package struct SkipReason: Sendable, Hashable, CustomStringConvertible {
    /// What kept the case from running.
    package enum Kind: String, Sendable, CaseIterable {
        /// The case's own `skip:`.
        case skip
        /// It needs the mock's payer or control API (`requires: [mock]`) and the target has none.
        case needsMock
        /// The live target has no credentials for the case's provider.
        case noCredentials
        /// A pack scenario that needs a part of the backend's contract the contract does not describe.
        case notInContract
        /// `--fail-fast` stopped the run after an earlier failure.
        case failFast
        /// A signal (or the run stopping) came before the case started.
        case interrupted
        /// A replayed run whose recording has no such case.
        case notRecorded
        /// An `xfail:` case that failed as expected.
        case xfail
        /// Read from a report or recording that did not say its kind.
        case other

        /// The words every reason of the kind starts with.
        var lead: String {
            switch self {
            case .skip: "skip: "
            case .notInContract: "not in the contract: "
            case .xfail: "xfail: "
            case .interrupted: "interrupted: "
            case .needsMock, .noCredentials, .failFast, .notRecorded, .other: ""
            }
        }
    }

    /// The kind.
    package var kind: Kind
    /// What the kind's lead does not say (the `skip:` text, the contract's gap, the xfail reason…).
    package var detail: String
    /// Why this case in particular (a `needsMock` case's ``Case/whyMock``), after the detail; the console's summary
    /// groups cases by ``summary``, which leaves it out.
    package var because: String?

    /// The reason, as reports write it.
    package var description: String { summary + (because.map { " — " + $0 } ?? "") }

    /// The reason without the case's own ``because``: what the console counts skipped cases by.
    package var summary: String { kind.lead + detail }

    /// A reason of `kind` with `detail` after its lead.
    package init(_ kind: Kind, _ detail: String, because: String? = nil) {
        self.kind = kind
        self.detail = detail
        self.because = because
    }

    /// A reason read back from a report or recording: `text` as written, with its kind and ``because`` when the file
    /// named them.
    package init(reading text: String, kind name: String?, because: String? = nil) {
        let kind = name.flatMap(Kind.init(rawValue:)) ?? .other
        var text = text
        if let because, text.hasSuffix(" — " + because) { text.removeLast(because.count + 3) }
        self.kind = kind
        self.detail = text.hasPrefix(kind.lead) ? String(text.dropFirst(kind.lead.count)) : text
        self.because = because
    }

    /// The case's own `skip:`.
    package static func skip(_ text: String) -> SkipReason { SkipReason(.skip, text) }

    /// `requires: [mock]` on `target` (its own name: `sandbox`, a profile's `staging`), which has no payer or
    /// control API; `because` is why the case needs it (``Case/whyMock``).
    package static func needsMock(target: String, because: String? = nil) -> SkipReason {
        SkipReason(.needsMock, "requires the mock's payer/control API; target '\(target)' has none", because: because)
    }

    /// No credentials for `provider` on the live `target` (of a profile, or the built-in sandbox).
    package static func noCredentials(provider: String, target: LiveTarget) -> SkipReason {
        let detail =
            target.profile == nil
            ? "no sandbox credentials for '\(provider)' (set PAYCHECK_\(provider.uppercased())_* variables)"
            : target.providers[provider] == nil
                ? "target '\(target.name)' does not name '\(provider)' (a profile's target uses only the providers it lists)"
                : "no credentials for '\(provider)' on target '\(target.name)' ('paycheck targets' names the missing ones)"
        return SkipReason(.noCredentials, detail)
    }

    /// A pack scenario whose step needs what `contract` lacks: `gap`.
    package static func notInContract(_ gap: String) -> SkipReason { SkipReason(.notInContract, gap) }

    /// `--fail-fast` stopped the run.
    package static let failFast = SkipReason(.failFast, "not run: --fail-fast stopped the run after an earlier failure")

    /// The run was stopped before the case started.
    package static let interrupted = SkipReason(.interrupted, "the run was stopped before this case started")

    /// A replayed case the recording in `directory` does not hold.
    package static func notRecorded(in directory: String) -> SkipReason { SkipReason(.notRecorded, "not in the recording \(directory)") }

    /// An `xfail:` case that failed, as its `reason` expected.
    package static func xfail(_ reason: String) -> SkipReason { SkipReason(.xfail, reason) }
}
