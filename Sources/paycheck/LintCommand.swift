import ArgumentParser
import Foundation
import PayCheckCore
import PayCheckRunner

/// `paycheck lint`: checks suites without running them.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check suite files without running them.",
        usage: "paycheck lint [<paths> ...] [<options>]",
        discussion:
            "Reports every problem of every file (and of the --contract file and the target profile) with file:line:column, the offending text and a suggestion. Exits 2 when any file is invalid."
    )

    @OptionGroup var suites: SuiteOptions

    @OptionGroup var profile: ProfileOptions

    func run() throws {
        let output = Output()
        let environment = ProcessInfo.processInfo.environment
        let colored = suites.colored(environment: environment)
        var result = suites.load()
        let contract = suites.loadContract(into: &result)
        // The target profile is checked too (a secret written in it is an error), after the suites' problems.
        let invalidSuites = output.report(result, colored: colored)
        let profile = try? self.profile.load(output: output, colored: colored)
        if invalidSuites || (self.profile.path != nil && profile == nil) { throw ExitCode(2) }
        let cases = result.suites.reduce(0) { $0 + $1.cases.count }
        let checked = (contract.map { " and the contract '\($0.name)'" } ?? "") + (profile.map { " and the target profile '\($0.file)'" } ?? "")
        output.out("\(result.suites.count) suite\(result.suites.count == 1 ? "" : "s"), \(cases) case\(cases == 1 ? "" : "s")\(checked): no problems found.")
    }
}
