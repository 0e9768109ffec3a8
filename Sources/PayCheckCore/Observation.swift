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
    /// The expectation in words, e.g. `eq 200`, `matches '^\d+$'`.
    package var expected: String
    /// The actual value, or `(absent)`.
    package var actual: String
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
    package init(location: SourceLocation, subject: String, expected: String, actual: String, kind: Kind) {
        self.location = location
        self.subject = subject
        self.expected = expected
        self.actual = actual
        self.kind = kind
    }

    /// One line: `body.status: expected eq "OK", got "FAILED"`.
    package var message: String { "\(subject): expected \(expected), got \(actual)" }
}
