import Foundation
package import PayCheckReports
package import PayCheckRunner

/// Where a run's or a merge's reports go, what a baseline compares them with and what fails the run: the values of
/// `--report-*`, `--junit-locations`, `--no-reports`, `--baseline`, `--fail-on` and `--annotations`.
package struct ReportSettings: Sendable {
    package var junit = "Reports/junit.xml"
    package var json = "Reports/report.json"
    package var html = "Reports/report.html"
    package var codeQuality: String?
    package var junitLocations = false
    package var noReports = false
    package var annotations: CIAnnotations.Style?
    package var baseline: String?
    package var failOn: FailOn = .any

    /// The default settings: the three reports under `Reports/`, any failure fails.
    package init() {}

    /// Why the baseline report cannot be used; its description is the message after `error: `.
    package struct BaselineError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Reads the baseline report, if one was given (`run` reads it before anything else, since it may be the path
    /// this run's JSON report replaces).
    /// - Throws: a ``BaselineError`` when the baseline cannot be read.
    package func readBaseline() throws(BaselineError) -> RunResult? {
        guard let baseline else { return nil }
        do {
            let text = try String(contentsOfFile: baseline, encoding: .utf8)
            return try JSONReportReader.read(text, file: baseline)
        } catch let failure as JSONReportReader.Failure {
            throw BaselineError(description: "--baseline: \(failure)")
        } catch {
            throw BaselineError(description: "--baseline: cannot read '\(baseline)': \(error.localizedDescription)")
        }
    }

    /// Attaches the gate and, with a baseline read by ``readBaseline()``, the comparison to `result`.
    package func applyBaseline(to result: inout RunResult, previous: RunResult?) {
        result.failOn = failOn
        if let baseline, let previous { result.baseline = BaselineComparison(file: baseline, current: result, previous: previous) }
    }

    /// The CI annotations the settings and environment ask for (empty when none are).
    package func annotations(for result: RunResult, environment: [String: String]) -> String {
        switch annotations ?? CIAnnotations.defaultStyle(environment: environment) {
        case .github: CIAnnotations.github(result)
        case .none: ""
        }
    }

    /// The report files this run writes (none with `--no-reports`), each with how it renders a result.
    package var files: [ReportFile.Kind] {
        guard !noReports else { return [] }
        let junitLocations = self.junitLocations
        var files = [
            ReportFile.Kind(path: junit) { JUnitReporter.render($0, locations: junitLocations) },
            ReportFile.Kind(path: json, streaming: JSONReporter.write),
            ReportFile.Kind(path: html, render: HTMLReporter.render),
        ]
        if let codeQuality { files.append(ReportFile.Kind(path: codeQuality, render: CIAnnotations.codeQuality)) }
        return files.filter { !$0.path.isEmpty }
    }

    /// Writes every report that is not disabled, each atomically and only to a regular file (``ReportFile``).
    /// - Throws: the ``ReportFile/Refusal`` of the first report that cannot be written.
    package func write(_ result: RunResult) throws(ReportFile.Refusal) {
        for file in files { try file.write(result) }
    }
}
