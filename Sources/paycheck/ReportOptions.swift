import ArgumentParser
import Foundation
import PayCheckCommands
import PayCheckReports
import PayCheckRunner

/// Where reports go and how CI is told about failures: shared by `run` and `merge`.
struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where to write the JUnit report ('' to skip).", valueName: "path"))
    var reportJunit: String = "Reports/junit.xml"

    @Option(name: .long, help: ArgumentHelp("Where to write the JSON report ('' to skip).", valueName: "path"))
    var reportJson: String = "Reports/report.json"

    @Option(name: .long, help: ArgumentHelp("Where to write the HTML report ('' to skip).", valueName: "path"))
    var reportHtml: String = "Reports/report.html"

    @Option(name: .long, help: ArgumentHelp("Also write GitLab's code-quality report (failed and errored cases) here.", valueName: "path"))
    var reportCodequality: String?

    @Flag(name: .long, help: "Add file and line attributes to each JUnit <testcase> (GitLab, CircleCI, action-junit-report; not valid against junit-10.xsd).")
    var junitLocations = false

    @Flag(name: .long, help: "Write no report files (console only).")
    var noReports = false

    @Option(name: .long, help: ArgumentHelp("Print CI annotations for failed and errored cases: github or none (default: github when GITHUB_ACTIONS=true).", valueName: "style"))
    var annotations: CIAnnotations.Style?

    @Option(
        name: .long,
        help: ArgumentHelp("Compare with a previous JSON report of the same suites: list newly failing, newly passing, new and removed cases.", valueName: "report.json"))
    var baseline: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "What fails the run: any (default) failure or error; only new-failures against --baseline; or any failure and any finding on the merchant's backend: findings (every severity), findings:warning, findings:error ('paycheck explain RULE' explains one).",
            valueName: "any|new-failures|findings[:warning|:error]"))
    var failOn: FailOn = .any

    func validate() throws {
        if noReports, let reportCodequality {
            throw ValidationError("--no-reports writes no file, so --report-codequality \(reportCodequality) would be dropped: give one or the other")
        }
        if failOn == .newFailures && baseline == nil {
            throw ValidationError("--fail-on new-failures needs --baseline PREVIOUS.json to know what is new")
        }
    }

    /// The options as plain values, for the library (``ReportSettings``).
    var settings: ReportSettings {
        var settings = ReportSettings()
        (settings.junit, settings.json, settings.html, settings.codeQuality) = (reportJunit, reportJson, reportHtml, reportCodequality)
        (settings.junitLocations, settings.noReports, settings.annotations) = (junitLocations, noReports, annotations)
        (settings.baseline, settings.failOn) = (baseline, failOn)
        return settings
    }

    /// Reads the baseline report, if one was given and attaches the comparison and the gate to `result`.
    /// - Throws: exit 2 with a message when the baseline cannot be read.
    func applyBaseline(to result: inout RunResult, output: Output) throws {
        settings.applyBaseline(to: &result, previous: try readBaseline(output: output))
    }

    /// Reads the baseline report, if one was given (``ReportSettings/readBaseline()``).
    /// - Throws: exit 2 with a message when the baseline cannot be read.
    func readBaseline(output: Output) throws -> RunResult? {
        do {
            return try settings.readBaseline()
        } catch {
            output.err("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// Attaches the gate and, with a baseline read by ``readBaseline(output:)``, the comparison to `result`.
    func applyBaseline(to result: inout RunResult, previous: RunResult?) {
        settings.applyBaseline(to: &result, previous: previous)
    }

    /// Prints the annotations the options and environment ask for.
    func annotate(_ result: RunResult, output: Output, environment: [String: String]) {
        output.raw(settings.annotations(for: result, environment: environment))
    }

    /// The report files this run writes (none with `--no-reports`).
    var files: [ReportFile.Kind] { settings.files }

    /// Writes every report that is not disabled (``ReportSettings/write(_:)``).
    /// - Throws: exit 2 with a message when a file cannot be written.
    func write(_ result: RunResult, output: Output) throws {
        for file in files { try file.write(result, output: output) }
    }
}

extension ReportFile.Kind {
    /// Renders and writes `result`.
    /// - Throws: exit 2 with a message when the file cannot be written.
    func write(_ result: RunResult, output: Output) throws {
        do {
            try write(result)
        } catch {
            output.err("error: \(error)")
            throw ExitCode(2)
        }
    }
}

extension CIAnnotations.Style: ExpressibleByArgument {}
extension FailOn: ExpressibleByArgument {}
