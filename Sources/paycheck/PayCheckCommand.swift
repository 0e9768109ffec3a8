import ArgumentParser
import CPayCheckSignals
import Foundation
import PayCheckRunner

/// Entry point: parses, runs, and maps usage errors to exit code 2 (argument-parser's default is 64).
///
/// The main thread parses, then waits while the command runs as a task. It never enters dispatch's main loop, which
/// waits in `sigsuspend` with every signal open and so would take the SIGINT or SIGTERM that `run` holds from before
/// `main` (CPayCheckSignals) until its watcher reads it (``RunInterruption``).
@main
enum Main {
    static func main() {
        let parsed: ParsedCommand
        do {
            parsed = ParsedCommand(command: try PayCheckCommand.parseAsRoot())
        } catch {
            fail(error)
        }
        // Every command but `run` lets the signals act as they always do.
        if !(parsed.command is RunCommand) { paycheck_release_held_signals() }
        Task.detached {
            do {
                try await parsed.run()
                exit(0)
            } catch {
                fail(error)
            }
        }
        DispatchSemaphore(value: 0).wait()
        fatalError("unreachable: the command's task exits the process")
    }

    /// The parsed command, handed from the main thread to the task that runs it (it is not touched on main after).
    struct ParsedCommand: @unchecked Sendable {
        let command: any ParsableCommand

        func run() async throws {
            var command = command
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        }
    }

    /// Says what went wrong and exits with its code.
    static func fail(_ error: any Error) -> Never {
        let code = PayCheckCommand.exitCode(for: error)
        let message = PayCheckCommand.fullMessage(for: error)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if code == .validationFailure, arguments.first == "run" {
            // A run whose command line is wrong still replaces the previous run's reports with ones that say so.
            RunCommand.refuseUnparsed(Array(arguments.dropFirst()), message: PayCheckCommand.message(for: error))
        }
        if !message.isEmpty {
            let handle = code == .success ? FileHandle.standardOutput : FileHandle.standardError
            handle.write(Data((message + "\n").utf8))
        }
        exit(code == .validationFailure ? 2 : code.rawValue)
    }
}

/// The `paycheck` command: runs conformance suites against payment-provider mocks and sandboxes.
struct PayCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paycheck",
        abstract: "Conformance suites for payment-provider integrations.",
        discussion: HelpText.reflow(
            """
            PayCheck reads YAML suite files that describe end-to-end payment flows (authentication,
            session lifecycle, result-state mapping, error codes), runs them against an embedded
            stateful mock of each provider (the default) or a live sandbox, and writes JUnit, JSON
            and HTML reports.

            Exit codes: 0 all passed · 1 conformance failures · 2 invalid suite, usage or
            configuration · 3 could not run (transport errors, timeouts, sandbox down) · 4 nothing
            was checked · 130 interrupted.
            """),
        version: BuildDescription.current.line,
        subcommands: [
            RunCommand.self, MergeCommand.self, LintCommand.self, ListCommand.self, MockCommand.self, ExplainCommand.self,
            StatesCommand.self, SchemaCommand.self, InitCommand.self, TargetsCommand.self, DriftCommand.self, VersionCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )
}
