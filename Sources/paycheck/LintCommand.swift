import ArgumentParser
import Foundation
import PayCheckCore

/// `paycheck lint`: checks suites without running them.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check suite files without running them.",
        usage: "paycheck lint [<paths> ...] [<options>]",
        discussion: "Reports every problem of every file (and of the --contract file) with file:line:column, the offending text and a suggestion. Exits 2 when any file is invalid.")

    @OptionGroup var suites: SuiteOptions

    func run() throws {
        let output = Output()
        let environment = ProcessInfo.processInfo.environment
        var result = suites.load()
        let contract = suites.loadContract(into: &result)
        if output.report(result, colored: suites.colored(environment: environment)) {
            throw ExitCode(2)
        }
        let cases = result.suites.reduce(0) { $0 + $1.cases.count }
        let checked = contract.map { " and the contract '\($0.name)'" } ?? ""
        output.out("\(result.suites.count) suite\(result.suites.count == 1 ? "" : "s"), \(cases) case\(cases == 1 ? "" : "s")\(checked): no problems found.")
    }
}
