import ArgumentParser
import Foundation
import PayCheckCommands
import PayCheckRunner
import Synchronization

/// What `paycheck run` does with SIGINT and SIGTERM, from its first step to its exit, so that the report paths
/// never hold reports a CI gate could take for this run's when this run was interrupted:
/// - the previous run's reports are removed as soon as the baseline (which may be one of them) is read;
/// - while the suites load, the first signal writes reports of a run interrupted before any case, and exits 130;
/// - while cases run, the first signal stops starting cases and cancels running steps; the reports are then
///   written, interrupted, and the run exits 130;
/// - while reports are written, the first signal lets them finish and has them rewritten as interrupted (130);
///   once they are written the run's verdict stands (the reports and the exit code agree);
/// - a second signal exits 130 at once: every report at the configured paths that does not already say this run
///   was interrupted is replaced by a short one that says it quit before its results were written; once the
///   reports are written (the run is exiting with their verdict) it changes nothing.
/// Every report written here carries the run's `--run-id`.
/// Report files are written one at a time under the lock the signal handler takes, so a file is never half
/// replaced when the handler looks at it.
final class RunInterruption: Sendable {
    /// Where the run is.
    private enum Phase {
        case loading, running, writing, done, exiting
    }

    private struct State {
        var phase = Phase.loading
        /// The running cases, once started.
        var run: Task<RunResult, any Error>?
        /// A first signal that came while the run was being started, before its task was known.
        var cancelRequested = false
        /// A first signal that came while a result was being written.
        var lateSignal = false
        /// Paths that hold this run's reports of an interrupted run.
        var interruptedReports: Set<String> = []
    }

    private let state = Mutex(State())
    private let files: [ReportFile.Kind]
    /// The run's target, once resolved (the one asked for until then).
    private let target: Mutex<Target>
    private let output: Output
    /// The run's id across its shards (`--run-id` or the CI's), known from the first step.
    private let runId: String
    private let watcher = Mutex<SignalWatcher?>(nil)

    /// Prepares for `files` (the reports this run writes); ``watch()`` starts listening.
    init(files: [ReportFile.Kind], target: Target, runId: String, output: Output) {
        self.files = files
        self.runId = runId
        self.target = Mutex(target)
        self.output = output
    }

    /// Starts turning SIGINT and SIGTERM into the behaviour above; they stay watched until the process exits.
    func watch() {
        let watcher = SignalWatcher { [self] _, count in self.signalled(count: count) }
        self.watcher.withLock { $0 = watcher }
    }

    /// The run's target, once the options and the profile resolved it.
    func resolved(_ target: Target) {
        self.target.withLock { $0 = target }
    }

    /// Writes reports of a run refused before any case, saying `message` (a configuration error the console already
    /// showed), and answers the exit code: 2, or 130 when a signal came meanwhile.
    func refuse(_ message: String) throws -> ExitCode {
        removeStaleReports()
        let text = message.isEmpty ? "the run's configuration could not be used (see the console)" : message
        let written = try write(.refused([(file: "configuration", message: text)], target: target.withLock { $0 }))
        return ExitCode(written.interrupted ? 130 : 2)
    }

    /// Removes the reports an earlier run left at the configured paths.
    func removeStaleReports() {
        state.withLock { state in
            for file in files where !state.interruptedReports.contains(file.path) { ReportFile.remove(file.path) }
        }
    }

    /// Moves from loading to running `body`, unless a signal came during loading (the handler is then writing the
    /// interrupted reports and exits: this never returns).
    func run(_ body: @escaping @Sendable () async throws -> RunResult) async throws -> RunResult {
        let started = state.withLock { state -> Bool in
            guard state.phase == .loading else { return false }
            state.phase = .running
            return true
        }
        guard started else { Self.park() }
        let task = Task { try await body() }
        let cancel = state.withLock { state -> Bool in
            state.run = task
            return state.cancelRequested
        }
        if cancel { task.cancel() }
        return try await task.value
    }

    /// Writes `result` to every report file; when a first signal came meanwhile, writes it again marked as
    /// interrupted and returns that.
    func write(_ result: RunResult) throws -> RunResult {
        let exiting = state.withLock { state -> Bool in
            guard state.phase != .exiting else { return true }
            state.phase = .writing
            return false
        }
        // A signal while loading: the handler is writing the reports of the interrupted run, and exits.
        if exiting { Self.park() }
        defer { state.withLock { $0.phase = .done } }
        let result = stamped(result)
        try writeAll(result)
        guard !result.interrupted, state.withLock({ $0.lateSignal }) else { return result }
        var interrupted = result
        interrupted.interrupted = true
        try writeAll(interrupted)
        return interrupted
    }

    private func writeAll(_ result: RunResult) throws {
        for file in files {
            try state.withLock { state in
                try file.write(result, output: output)
                if result.interrupted { state.interruptedReports.insert(file.path) } else { state.interruptedReports.remove(file.path) }
            }
        }
    }

    /// The signal handler (on a dispatch queue, never inside the C handler).
    private func signalled(count: Int) {
        if count >= 2 {
            state.withLock { state in
                // Once written, the reports are the run's verdict and the process is exiting with it.
                guard state.phase != .done else { return }
                // Under the lock no report is half written: replace whatever does not say "interrupted", then go.
                let quit = stamped(.interrupted(StepProblem(.quitTwice, "interrupted twice: PayCheck quit before the run's results were written"), target: target.withLock { $0 }))
                for file in files where !state.interruptedReports.contains(file.path) {
                    if (try? file.write(quit, output: output)) == nil { ReportFile.remove(file.path) }
                }
                output.err("\ninterrupted again: quitting now")
                Foundation.exit(130)
            }
            return
        }
        enum Action { case writeInterrupted, cancel(Task<RunResult, any Error>?), writing, none }
        let action = state.withLock { state -> Action in
            switch state.phase {
            case .loading:
                state.phase = .exiting
                return .writeInterrupted
            case .running:
                state.cancelRequested = true
                return .cancel(state.run)
            case .writing:
                state.lateSignal = true
                return .writing
            case .done, .exiting:
                return .none
            }
        }
        switch action {
        case .writeInterrupted:
            output.err("\ninterrupted while loading the suites: no case ran; writing reports that say so (signal again to quit now)")
            do { try writeAll(stamped(.interruptedBeforeCases(while: "the suites were loading", target: target.withLock { $0 }))) } catch {}
            Foundation.exit(130)
        case .cancel(let task):
            output.err("\ninterrupted: stopping (running steps are cancelled, reports will be written; signal again to quit now)")
            task?.cancel()
        case .writing:
            output.err("\ninterrupted: the reports being written will say so (signal again to quit now)")
        case .none:
            break
        }
    }

    /// `result` with the run's id, when it has none of its own.
    private func stamped(_ result: RunResult) -> RunResult {
        guard result.runId.isEmpty else { return result }
        var result = result
        result.runId = runId
        return result
    }

    /// Waits for the signal handler, which is writing the reports, to end the process.
    private static func park() -> Never {
        while true { sleep(60) }
    }
}
