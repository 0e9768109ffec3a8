/// A problem a provider step met, with the kind that decides its verdict (DESIGN.md §3, §6).
package struct ProviderError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    package enum Kind: Sendable, Hashable {
        /// The step itself is wrong (a missing parameter, a bad value): the suite must change. Exit 2.
        case invalidStep
        /// The provider (or mock) answered something the provider's documentation rules out: an unmapped state,
        /// an unknown error code, a malformed answer. A conformance failure, exit 1.
        case nonConformance(expected: String)
        /// The step could not run: missing credentials, no control API on this target. Exit 3.
        case couldNotRun
    }

    /// The kind.
    package var kind: Kind
    /// What went wrong, in lower case, quoting the offending value.
    package var message: String

    /// Creates an error.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// An invalid step.
    package static func invalidStep(_ message: String) -> ProviderError { ProviderError(.invalidStep, message) }

    /// A non-conforming answer: `expected` says what the documentation allows, `message` what came.
    package static func nonConformance(_ message: String, expected: String) -> ProviderError {
        ProviderError(.nonConformance(expected: expected), message)
    }

    /// A step that could not run.
    package static func couldNotRun(_ message: String) -> ProviderError { ProviderError(.couldNotRun, message) }

    /// The message.
    package var description: String { message }
}
