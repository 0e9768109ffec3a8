/// What a step observed: the HTTP response plus, for provider steps, the mapped outcome and error.
package struct Observation: Sendable {
    /// The HTTP status, or `nil` when the step had no HTTP response (e.g. `redirect:`).
    package var status: Int?
    /// Response headers in order.
    package var headers: [(name: String, value: String)]
    /// The parsed body (JSON, or XML turned into a value), or `nil` when it is neither.
    package var body: Value?
    /// The raw body text.
    package var rawBody: String
    /// What the adapter read, when it is not the answer's body as sent (MIT's decrypted `nbResponse`); the exchange
    /// keeps it as `readBody`, for transcripts and `paycheck drift`. `nil` for an answer read as it came.
    package var readAs: String?
    /// The canonical outcome for provider steps.
    package var outcome: Outcome?
    /// The native state the outcome was mapped from, e.g. `REJECTED/?C`.
    package var nativeState: String?
    /// The provider error catalog entry, when the response was an error.
    package var error: ObservedError?
    /// Variables the step defines for the rest of the case (`merchant: checkout` defines `order`).
    package var defines: [String: Value] = [:]

    /// Creates an observation.
    package init(
        status: Int?, headers: [(name: String, value: String)] = [], body: Value? = nil, rawBody: String = "",
        outcome: Outcome? = nil, nativeState: String? = nil, error: ObservedError? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.rawBody = rawBody
        self.outcome = outcome
        self.nativeState = nativeState
        self.error = error
    }

    /// The first header with this name, case-insensitively.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Parses a body as JSON, else as XML when it looks like XML.
    package static func parseBody(_ text: String) -> Value? {
        if let json = JSONText.parse(text) { return json }
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("<") { return XMLValue.parse(text) }
        return nil
    }
}

/// A provider error an answer carried, classified by the provider's error catalog (DESIGN.md §3).
package struct ObservedError: Sendable, Hashable {
    /// The class: C, S, P, A or T.
    package var errorClass: ErrorClass
    /// The native code, verbatim (`102`, `BR`, `INVALID_CREDENTIALS`…).
    package var code: String
    /// The message the provider sent, or the catalog's.
    package var message: String

    /// Creates an observed error.
    package init(errorClass: ErrorClass, code: String, message: String) {
        self.errorClass = errorClass
        self.code = code
        self.message = message
    }

    /// The `error:` expectation fields: `class`, `code`, `message`.
    package static let fields = ["class", "code", "message"]

    /// One field by its `error:` expectation name.
    package subscript(field: String) -> String? {
        switch field {
        case "class": errorClass.rawValue
        case "code": code
        case "message": message
        default: nil
        }
    }
}

/// A failed expectation: where it is written, what was expected and what was found.
package struct Mismatch: Sendable, Hashable {
    /// Where the expectation is written.
    package var location: SourceLocation
    /// What was checked, e.g. `status`, `body.status.status`, `header content-type`, `outcome`.
    package var subject: String
    /// What the expectation wanted: a matcher with its rendered operand, a value until a reporter renders it.
    package var expected: Expected
    /// What was found: the value (or its absence), until a reporter renders it.
    package var actual: Found
    /// What was checked.
    package var kind: Kind

    /// What a mismatch is about; the raw value is the JUnit failure type and the JSON report's `kind`.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `expect: { status }`.
        case status = "StatusMismatch"
        /// `expect: { headers }`.
        case header = "HeaderMismatch"
        /// `expect: { body }`.
        case body = "BodyMismatch"
        /// `expect: { outcome }`.
        case outcome = "OutcomeMismatch"
        /// `expect: { error }`.
        case errorCode = "ErrorCodeMismatch"
        /// A `capture:` found nothing.
        case capture = "CaptureMissing"
        /// The provider's (or the backend's) answer broke its documented contract.
        case nonConformance = "NonConformance"
        /// A case marked `xfail:` passed.
        case unexpectedPass = "UnexpectedPass"
    }

    /// Creates a mismatch.
    package init(location: SourceLocation, subject: String, expected: Expected, actual: Found, kind: Kind) {
        self.location = location
        self.subject = subject
        self.expected = expected
        self.actual = actual
        self.kind = kind
    }

    /// One line: `body.status: expected ne "OK", got "FAILED"`.
    package var message: String { "\(subject): expected \(expected.text), got \(actual.text)" }

    /// What an expectation wanted. ``text`` is its one rendering, which every reporter shows.
    package enum Expected: Sendable, Hashable {
        /// A matcher that compares with a value: `eq` (shown as the value alone), `ne`, `contains`, `in`, `lt`, `le`,
        /// `gt`, `ge`, with the operand as rendered for this run.
        case matcher(String, Value)
        /// `matches: pattern`.
        case pattern(String)
        /// `type: name`.
        case type(String)
        /// `exists: true` (or `false`).
        case presence(Bool)
        /// What no single value says: a `length:` check, a capture's source, an answer's documented contract, an
        /// `xfail:` case; also an expectation read back from a report, or one a secret was masked in.
        case words(String)

        /// The expectation as reports show it: `200`, `ne "OK"`, `matches '^\d+$'`, `to exist`.
        package var text: String {
            switch self {
            case .matcher(let keyword, let value): keyword == "eq" ? value.brief : "\(keyword) \(value.brief)"
            case .pattern(let pattern): "matches '\(pattern)'"
            case .type(let name): "type \(name)"
            case .presence(let wanted): wanted ? "to exist" : "to be absent"
            case .words(let words): words
            }
        }
    }

    /// What was found where an expectation looked. ``text`` is its one rendering.
    package enum Found: Sendable, Hashable {
        /// The value found (`nil`: absent), with what explains it, such as the native state an outcome was mapped from.
        case value(Value?, note: String?)
        /// What no single value says: the rule an answer broke, "it passed"; also a value read back from a report, or
        /// one a secret was masked in.
        case words(String)

        /// A value found, with no note.
        package static func value(_ value: Value?) -> Found { .value(value, note: nil) }

        /// The finding as reports show it: `"open"`, `402`, `(absent)`, with its note after it.
        package var text: String {
            switch self {
            case .value(let value, let note): (value?.brief ?? "(absent)") + (note.map { " " + $0 } ?? "")
            case .words(let words): words
            }
        }

        /// Adds `note` after what is already said.
        package mutating func annotate(_ note: String) {
            switch self {
            case .value(let value, let existing): self = .value(value, note: existing.map { $0 + " " + note } ?? note)
            case .words(let words): self = .words(words + " " + note)
            }
        }
    }
}
