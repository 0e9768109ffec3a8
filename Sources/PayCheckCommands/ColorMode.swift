/// `--color` values: whether output on a terminal, or off one, is coloured.
package enum ColorMode: String, CaseIterable, Sendable {
    case auto, always, never

    /// Whether to colour output written to a terminal (`isTerminal`) or elsewhere, in `environment`.
    package func colored(environment: [String: String], isTerminal: Bool) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: Self.autoColor(environment: environment, isTerminal: isTerminal)
        }
    }

    /// `--color auto`: a non-empty `NO_COLOR` turns colour off (no-color.org); otherwise a `FORCE_COLOR` other than
    /// empty, `0` or `false` turns it on off a terminal (CI logs that render ANSI, force-color.org); else a terminal.
    static func autoColor(environment: [String: String], isTerminal: Bool) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if let force = environment["FORCE_COLOR"], !["", "0", "false"].contains(force.lowercased()) { return true }
        return isTerminal
    }
}
