import Foundation
import PayCheckCore

extension RunResult {
    /// The result of a run that could not start because its input is invalid — suites that do not load, no case
    /// selected, an inconsistent configuration — so that the reports written for it describe this run (exit 2)
    /// instead of leaving an earlier run's reports in place. Each problem becomes an errored case of its file.
    public static func refused(
        _ problems: [(file: String, message: String)], target: Target, hostname: String = ProcessInfo.processInfo.hostName
    ) -> RunResult {
        let now = Date()
        var order: [String] = []
        var byFile: [String: [String]] = [:]
        for problem in problems {
            if byFile[problem.file] == nil { order.append(problem.file) }
            byFile[problem.file, default: []].append(problem.message)
        }
        let suites = order.map { file in
            let location = SourceLocation(file: file, line: 1, column: 1)
            var step = StepResult(
                name: "load", location: location, verdict: .error, error: (byFile[file] ?? []).joined(separator: "\n"))
            step.invalidStep = true
            let testCase = CaseResult(name: "the suite is valid", location: location, verdict: .error, steps: [step], startedAt: now)
            return SuiteResult(file: file, name: file, provider: nil, cases: [testCase], startedAt: now)
        }
        return RunResult(
            suites: suites, target: target.description, targetKind: target.kind, version: payCheckVersion, hostname: hostname,
            startedAt: now, duration: 0)
    }
}
