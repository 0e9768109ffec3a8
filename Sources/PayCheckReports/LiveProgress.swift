import Foundation
import PayCheckRunner
import Synchronization
import PayCheckCore

/// The console's live progress: counts finished cases and remembers the running ones, and writes the
/// terminal line or the rate-limited log lines of a ``ProgressStyle``: after a finished case
/// (`progress: 12/40 cases · 1 failed · 2 errors · last: Suite › case (passed)`) or, when nothing finishes, on a
/// ``RunEvent/tick`` (`… · running: Suite › case (2.10 s)`).
///
/// Every write happens under the lock, so lines from concurrent events never interleave. On a terminal the
/// live line is written without a newline (`\r`, erase line, text); ``around(_:)`` erases it before a
/// permanent line and draws it again after. Times come from the injected `now`, so tests control them.
final class LiveProgress: Sendable {
    /// A case that started and has not finished.
    private struct Running {
        /// `suite file` + case name.
        var key: String
        /// `Suite › case`, as shown.
        var label: String
        /// When it started.
        var startedAt: Date
    }

    /// What the progress has seen.
    private struct State {
        /// Cases in the run.
        var total = 0
        /// Cases finished.
        var done = 0
        /// Cases failed so far.
        var failed = 0
        /// Cases errored so far.
        var errors = 0
        /// Cases running, in start order.
        var running: [Running] = []
        /// When the last log line was written (or the run started).
        var lastLogLine: Date?
        /// Whether the terminal line is on screen.
        var lineShown = false
    }

    /// The style.
    let style: ProgressStyle
    /// The widest terminal line, in characters (longer ones are cut, so the line never wraps).
    let width: Int
    /// The time.
    private let now: @Sendable () -> Date
    /// Receives the text.
    private let write: @Sendable (String) -> Void
    /// The state, guarded.
    private let state = Mutex(State())

    /// Creates progress in `style`, timed by `now`, writing to `write`.
    init(style: ProgressStyle, width: Int = 79, now: @escaping @Sendable () -> Date, write: @escaping @Sendable (String) -> Void) {
        self.style = style
        self.width = width
        self.now = now
        self.write = write
    }

    /// Writes `lines` (complete lines, possibly none) with the terminal line erased before and redrawn after,
    /// after updating the state with `event`.
    func around(_ event: RunEvent, _ lines: [String]) {
        state.withLock { s in
            let time = now()
            update(&s, with: event, at: time)
            if style == .terminal, s.lineShown, !lines.isEmpty || s.done == s.total {
                write("\r\u{1B}[2K")
                s.lineShown = false
            }
            for line in lines { write(line) }
            switch style {
            case .none: break
            case .terminal:
                guard s.done < s.total, s.total > 0 else { return }
                write("\r\u{1B}[2K" + terminalLine(s, at: time))
                s.lineShown = true
            case .log(let interval):
                let detail: String
                switch event {
                case .caseFinished(let suite, let result): detail = "last: \(suite.name) › \(result.name) (\(result.verdict.rawValue))"
                case .tick:
                    // A long case with nothing finishing: say what is still running.
                    guard let slowest = s.running.first else { return }
                    detail = "running: \(slowest.label) (\(ReportFormat.human(max(0, time.timeIntervalSince(slowest.startedAt)))))"
                default: return
                }
                if let last = s.lastLogLine, time.timeIntervalSince(last) < interval { return }
                s.lastLogLine = time
                write("progress: \(counts(s)) · \(detail)\n")
            }
        }
    }

    /// Applies an event to the counts and the running cases.
    private func update(_ s: inout State, with event: RunEvent, at time: Date) {
        switch event {
        case .started(let total, _):
            s = State(total: total, lastLogLine: time)
        case .caseStarted(let suite, let name):
            s.running.append(Running(key: suite.file + "\u{0}" + suite.name + "\u{0}" + name, label: "\(suite.name) › \(name)", startedAt: time))
        case .caseFinished(let suite, let result):
            s.done += 1
            if result.verdict == .failed { s.failed += 1 }
            if result.verdict == .error { s.errors += 1 }
            if let index = s.running.firstIndex(where: { $0.key == suite.file + "\u{0}" + suite.name + "\u{0}" + result.name }) { s.running.remove(at: index) }
        case .suiteFinished, .warning, .note, .tick:
            break
        }
    }

    /// `12/40 cases · 1 failed · 2 errors · slowest: Suite › case (4.2 s)`, cut to ``width``.
    private func terminalLine(_ s: State, at time: Date) -> String {
        var line = counts(s)
        if let slowest = s.running.first {
            line += " · slowest: \(slowest.label) (\(ReportFormat.human(max(0, time.timeIntervalSince(slowest.startedAt)))))"
        }
        guard line.count > width else { return line }
        return String(line.prefix(max(1, width - 1))) + "…"
    }

    /// `12/40 cases · 1 failed · 2 errors`.
    private func counts(_ s: State) -> String {
        "\(s.done)/\(ReportFormat.plural(s.total, "case")) · \(s.failed) failed · \(ReportFormat.plural(s.errors, "error"))"
    }
}
