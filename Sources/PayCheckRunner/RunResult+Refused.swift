import Foundation
import PayCheckCore

extension RunResult {
    /// The result of a run that could not start because its input is invalid — suites that do not load, no case
    /// selected, an inconsistent configuration — so that the reports written for it describe this run (exit 2)
    /// instead of leaving an earlier run's reports in place. Each problem becomes an errored case of its file.
    ///
    /// With `invalidInput` false the problem is the run's surroundings (a merchant backend that did not come up):
    /// the cases are errors that could not run (exit 3), not invalid input.
    package static func refused(
        _ problems: [(file: String, message: String)], target: Target, invalidInput: Bool = true,
        hostname: String = ProcessInfo.processInfo.hostName
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
            let why = (byFile[file] ?? []).joined(separator: "\n")
            let step = StepResult(name: "load", location: location, issue: invalidInput ? .invalidStep(StepProblem(.input, why)) : .couldNotRun(StepProblem(.notStarted, why)))
            let testCase = CaseResult(name: invalidInput ? "the suite is valid" : "the run could start", location: location, verdict: .error, steps: [step], startedAt: now)
            return SuiteResult(file: file, name: file, provider: nil, cases: [testCase], startedAt: now)
        }
        return RunResult(
            suites: suites, target: target.description, targetKind: target.kind, version: payCheckVersion, hostname: hostname,
            startedAt: now, duration: 0)
    }

    /// A run a signal stopped before any case ran, `while` (loading the suites, starting the run): one errored
    /// case says so (a CI gate that reads the reports sees an error, never an empty green run), and the result is
    /// marked interrupted (exit 130).
    package static func interruptedBeforeCases(
        while stage: String, target: Target, hostname: String = ProcessInfo.processInfo.hostName
    ) -> RunResult {
        interrupted(StepProblem(.beforeCases, "interrupted by a signal while \(stage); no case ran"), target: target, hostname: hostname)
    }

    /// A run a signal stopped before its results could be written (`why` says when): one errored case says so, and
    /// the result is marked interrupted (exit 130).
    package static func interrupted(_ why: StepProblem<InterruptionKind>, target: Target, hostname: String = ProcessInfo.processInfo.hostName) -> RunResult {
        let now = Date()
        let location = SourceLocation(file: "suites", line: 1, column: 1)
        let step = StepResult(name: "load", location: location, issue: .interrupted(why))
        let testCase = CaseResult(name: "the run could finish", location: location, verdict: .error, steps: [step], startedAt: now)
        var result = RunResult(
            suites: [SuiteResult(file: "suites", name: "suites", provider: nil, cases: [testCase], startedAt: now)],
            target: target.description, targetKind: target.kind, version: payCheckVersion, hostname: hostname, startedAt: now, duration: 0)
        result.interrupted = true
        return result
    }
}
