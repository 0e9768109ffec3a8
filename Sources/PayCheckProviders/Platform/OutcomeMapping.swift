package import PayCheckCore

/// A provider's table from native states to canonical outcomes (DESIGN.md §3, providers.md §6).
/// Every native state maps to exactly one outcome; a state the table does not know is unmapped,
/// and the step that observed it fails (a conformance failure) instead of guessing.
package struct OutcomeMapping: Sendable {
    /// One row: a native state, optionally narrowed by a reason code, and its outcome.
    package struct Rule: Sendable, Hashable {
        /// The native state, e.g. `REJECTED`.
        package var state: String
        /// The reason code that narrows the row (e.g. `?C`), or `nil` for any reason.
        package var reason: String?
        /// The canonical outcome.
        package var outcome: Outcome
        /// Why, with the providers.md section.
        package var note: String

        /// Creates a rule for a native state, optionally narrowed by a reason code.
        package init<State: NativeState>(_ state: State, reason: String? = nil, _ outcome: Outcome, _ note: String) {
            self.init(state: state.rawValue, reason: reason, outcome, note)
        }

        /// Creates a rule for a native state narrowed by a native sub-state (khipu's `status_detail`, Yuno's
        /// `sub_status`).
        package init<State: NativeState, Reason: NativeState>(_ state: State, reason: Reason, _ outcome: Outcome, _ note: String) {
            self.init(state: state.rawValue, reason: reason.rawValue, outcome, note)
        }

        private init(state: String, reason: String?, _ outcome: Outcome, _ note: String) {
            self.state = state
            self.reason = reason
            self.outcome = outcome
            self.note = note
        }

        /// `STATE` or `STATE/REASON`, as shown in reports.
        package var key: String { reason.map { "\(state)/\($0)" } ?? state }
    }

    /// The rows; a row with a reason wins over the row without one.
    package var rules: [Rule]

    /// Creates a table.
    package init(_ rules: [Rule]) { self.rules = rules }

    /// The rule for a state and reason, or `nil` when unmapped.
    package func rule(state: String, reason: String?) -> Rule? {
        rules.first { $0.state == state && $0.reason != nil && $0.reason == reason }
            ?? rules.first { $0.state == state && $0.reason == nil }
    }
}

/// A provider's error codes, each with its class (C/S/P/A/T), its message and where it is documented.
package struct ErrorCatalog: Sendable {
    /// One documented error.
    package struct Entry: Sendable, Hashable {
        /// The native code, verbatim (`102`, `request_not_valid`, `INVALID_CREDENTIALS`…).
        package var code: String
        /// The class.
        package var errorClass: ErrorClass
        /// What it means.
        package var message: String
        /// The HTTP status it comes with, when documented.
        package var httpStatus: Int?
        /// The providers.md section.
        package var source: String

        /// Creates an entry.
        package init(_ code: String, _ errorClass: ErrorClass, _ message: String, httpStatus: Int? = nil, source: String) {
            self.code = code
            self.errorClass = errorClass
            self.message = message
            self.httpStatus = httpStatus
            self.source = source
        }
    }

    /// The entries in documentation order.
    package var entries: [Entry]

    /// Creates a catalog.
    package init(_ entries: [Entry]) { self.entries = entries }

    /// The entry for a code.
    package func entry(_ code: String) -> Entry? { entries.first { $0.code == code } }

    /// The error an observation carries for an entry, with the provider's own message when it sent one.
    package static func observed(_ entry: Entry, message: String? = nil) -> ObservedError {
        ObservedError(errorClass: entry.errorClass, code: entry.code, message: message ?? entry.message)
    }
}
