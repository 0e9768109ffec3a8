import ArgumentParser
import Foundation
import PayCheckRunner

/// Entry point: parses, runs, and maps usage errors to exit code 2 (argument-parser's default is 64).
@main
enum Main {
    static func main() async {
        do {
            var command = try PayCheckCommand.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
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
