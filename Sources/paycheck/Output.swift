import Foundation
import PayCheckCore
import PayCheckReports
import Synchronization

/// Writes to stdout and stderr without interleaving partial lines.
struct Output: Sendable {
    /// What was written to stderr, kept by a command that may have to say it again in its reports (`run`).
    final class ErrorLog: Sendable {
        let lines = Mutex<[String]>([])
    }
    let errors: ErrorLog?

    /// An output; `keepingErrors` keeps a copy of what goes to stderr (``errorText``).
    init(keepingErrors: Bool = false) {
        self.errors = keepingErrors ? ErrorLog() : nil
    }

    /// What was written to stderr so far, without colours; empty unless the output keeps errors.
    var errorText: String {
        let text = errors?.lines.withLock { $0.joined(separator: "\n") } ?? ""
        return text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// Writes text (a newline is added) to stdout.
    func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes raw text to stdout.
    func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes text (a newline is added) to stderr.
    func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
        errors?.lines.withLock { $0.append(text) }
    }

    /// Prints load diagnostics to stderr with source lines, and returns whether there were errors.
    @discardableResult
    func report(_ result: SuiteLoader.Result, colored: Bool) -> Bool {
        guard !result.diagnostics.isEmpty else { return false }
        err(ConsoleReporter.diagnostics(result.diagnostics, sources: result.sources, colored: colored))
        return result.diagnostics.hasErrors
    }
}
