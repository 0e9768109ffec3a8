/// One problem found in a suite, a command line or a run, with where it is and how to fix it.
package struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    /// How serious a diagnostic is.
    package enum Severity: String, Sendable, Hashable {
        /// The suite or command cannot be used as written.
        case error
        /// The suite works, but probably not as meant.
        case warning
        /// Extra information attached to another diagnostic.
        case note
    }

    /// How serious this is.
    package var severity: Severity
    /// Where it is; `nil` for problems that belong to no file (a command-line flag, say).
    package var location: SourceLocation?
    /// A message in lower case that quotes the offending value.
    package var message: String
    /// An optional suggestion, such as "did you mean 'expect'?".
    package var hint: String?

    /// Creates a diagnostic.
    package init(_ severity: Severity = .error, at location: SourceLocation?, _ message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.message = message
        self.hint = hint
    }

    /// The first line of the rendering: `file:line:column: error: message`.
    package var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any of the diagnostics is an error.
    package var hasErrors: Bool { contains { $0.severity == .error } }
}
