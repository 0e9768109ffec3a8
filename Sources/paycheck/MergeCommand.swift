import ArgumentParser
import Foundation
import PayCheckReports
import PayCheckRunner

/// `paycheck merge`: one verdict and one set of reports from the shard reports of a run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the JSON reports of a sharded run into one JUnit, JSON and HTML report and one verdict.",
        usage: "paycheck merge <report.json> ... [<options>]",
        discussion: HelpText.reflow(
            """
            Give the JSON report of every shard (--shard k/n) of one run. The merge has the counts,
            verdicts and coverage the unsharded run would have had, and exits with the code that
            verdict deserves (0 · 1 · 2 · 3 · 4, as 'paycheck run'). Reports of different paycheck
            versions, suites, selections, runs (--run-id) or targets are refused, and so is a set with
            a shard missing or given twice (exit 2).

            Example: paycheck merge shard-*/report.json --report-junit Reports/junit.xml
            """))

    @Argument(help: ArgumentHelp("The shards' JSON reports.", valueName: "report.json"))
    var inputs: [String]

    @OptionGroup(title: "Reports and CI") var reports: ReportOptions

    @Flag(name: [.short, .long], help: "Print only the summary.")
    var quiet = false

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give the JSON reports to merge, e.g. 'paycheck merge shard-1/report.json shard-2/report.json'") }
        let outputs = [reports.reportJson, reports.reportJunit, reports.reportHtml].filter { !$0.isEmpty }
        for input in inputs where outputs.contains(input) && !reports.noReports {
            throw ValidationError("'\(input)' is both an input and an output: write the merged reports elsewhere (--report-json …)")
        }
    }

    func run() throws {
        let output = Output()
        var loaded: [(file: String, result: RunResult)] = []
        for file in inputs {
            do {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                loaded.append((file, try JSONReportReader.read(text, file: file)))
            } catch let failure as JSONReportReader.Failure {
                output.err("error: \(failure)")
                throw ExitCode(2)
            } catch {
                output.err("error: cannot read '\(file)': \(error.localizedDescription)")
                throw ExitCode(2)
            }
        }
        var merged: RunResult
        do {
            merged = try RunMerge.merge(loaded)
        } catch {
            output.err("error: cannot merge: \(error)")
            throw ExitCode(2)
        }
        try reports.applyBaseline(to: &merged, output: output)
        try reports.write(merged, output: output)
        let environment = ProcessInfo.processInfo.environment
        reports.annotate(merged, output: output, environment: environment)
        let console = ConsoleReporter(colored: false, verbose: false, quiet: quiet, write: { _ in })
        output.raw("merged \(loaded.count) report\(loaded.count == 1 ? "" : "s")\n" + console.summary(merged))
        throw ExitCode(merged.exitCode)
    }
}
