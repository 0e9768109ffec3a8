/// How the console shows progress while cases run, between the suite lines.
package enum ProgressStyle: Sendable, Equatable {
    /// No progress lines.
    case none
    /// A terminal: one live line, rewritten in place, with cases done/total, failures so far and the slowest
    /// case still running.
    case terminal
    /// A log without a terminal (CI): after a case finishes, a progress line if none was written for
    /// `interval` seconds, so a long run never looks hung and a fast one does not flood the log.
    case log(interval: Double)

    /// The log style's default interval, in seconds.
    static let defaultLogInterval: Double = 5

    /// `terminal` when output goes to a terminal, else `log` with the default interval.
    package static func detect(isTerminal: Bool) -> ProgressStyle {
        isTerminal ? .terminal : .log(interval: defaultLogInterval)
    }
}
