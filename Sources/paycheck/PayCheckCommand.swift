import ArgumentParser
import PayCheckRunner

/// The `paycheck` command: runs conformance suites against payment-provider mocks and sandboxes.
@main
struct PayCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paycheck",
        abstract: "Conformance suites for payment-provider integrations.",
        discussion: """
            PayCheck reads YAML suite files that describe end-to-end payment flows (authentication,
            session lifecycle, result-state mapping, error codes), runs them against an embedded
            stateful mock of each provider (the default) or a live sandbox, and writes JUnit and
            JSON reports.

            Exit codes: 0 all passed · 1 conformance failures · 2 invalid suite or usage ·
            3 could not run (transport errors, timeouts, sandbox down).
            """,
        version: payCheckVersion,
        subcommands: [RunCommand.self, LintCommand.self, ListCommand.self, MockCommand.self, VersionCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
