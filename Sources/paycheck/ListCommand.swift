import ArgumentParser
import Foundation
import PayCheckCore

/// `paycheck list`: shows the suites and cases that would run.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List suites and their cases (with tags and requirements).",
        usage: "paycheck list [<paths> ...] [<options>]")

    @OptionGroup var suites: SuiteOptions

    func run() throws {
        let output = Output()
        let result = suites.load()
        if output.report(result, colored: suites.colored(environment: ProcessInfo.processInfo.environment)) { throw ExitCode(2) }
        for suite in result.suites {
            output.out("\(suite.file)  \(suite.name)\(suite.provider.map { "  [\($0)]" } ?? "")")
            for c in suite.cases {
                var notes: [String] = []
                let tags = suite.tags + c.tags
                if !tags.isEmpty { notes.append("tags: " + tags.joined(separator: ", ")) }
                if !c.requires.isEmpty { notes.append("requires: " + c.requires.joined(separator: ", ")) }
                if let skip = c.skip { notes.append("skip: \(skip)") }
                if let xfail = c.xfail { notes.append("xfail: \(xfail)") }
                output.out("  - \(c.name)" + (notes.isEmpty ? "" : "  (" + notes.joined(separator: "; ") + ")"))
                if let catches = c.catches { output.out("      catches \(catches)") }
            }
        }
    }
}
