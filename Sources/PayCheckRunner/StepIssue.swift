package import PayCheckCore

/// Why a step did not pass. It is made where the step ran and travels typed, with the step's location, to every
/// reporter: the verdict, the exit code and each report's element are a `switch` over it, never a reading of
/// message text.
package enum StepIssue: Sendable {
    /// Expectations not met (status, headers, body, outcome, error, a capture, an `xfail:` case that passed), or an
    /// answer that broke the provider's documented contract, in the order written: the step does not conform.
    case mismatches([Mismatch])
    /// The exchange never completed: connection, timeout, a closed connection (class S, DESIGN.md §3).
    case transport(TransportError)
    /// The run timeout (`--run-timeout`) ended the step, or the case before it started.
    case runTimeout(StepProblem<RunTimeoutKind>)
    /// The step is invalid as written: the suite must change (exit 2).
    case invalidStep(StepProblem<InvalidStepKind>)
    /// The step could not run for a reason that is neither the suite's nor a conformance failure: the target has no
    /// control API, the mock clock could not be restored, a merchant scenario's premise did not happen.
    case couldNotRun(StepProblem<CouldNotRunKind>)
    /// The run was interrupted (a signal, or the run stopping) before the step ended.
    case interrupted(StepProblem<InterruptionKind>)
    /// The merchant's backend broke provider rules the run gates on (`--fail-on findings[:severity]`) with the
    /// requests it sent while the step ran: the findings of `gate` severity or more.
    case findings([Finding], gate: FindingSeverity)

    /// The step's verdict: a conformance failure is `failed`; anything that kept the step from a verdict is `error`.
    package var verdict: Verdict {
        switch self {
        case .mismatches, .findings: .failed
        case .transport, .runTimeout, .invalidStep, .couldNotRun, .interrupted: .error
        }
    }

    /// The names reports give the issue, in one place: the JSON report's `issue`, and the JUnit `type` of an
    /// `<error>` (a failure's type is its first mismatch's kind, or `MerchantFinding`).
    package var name: String { names.json }
    /// The JUnit `type` of an `<error>` with this issue.
    package var junitType: String { names.junit }
    /// The JUnit `type` of an `<error>` whose case has no failing step.
    package static let unnamedJUnitType = "ExecutionError"

    private var names: (json: String, junit: String) {
        switch self {
        case .mismatches: ("mismatch", Self.unnamedJUnitType)
        case .transport: ("transport", "TransportError")
        case .runTimeout: ("runTimeout", "RunTimeout")
        case .invalidStep: ("invalidStep", "InvalidStep")
        case .couldNotRun: ("couldNotRun", Self.unnamedJUnitType)
        case .interrupted: ("interrupted", "Interrupted")
        case .findings: ("finding", "MerchantFinding")
        }
    }

    /// Why the step could not run, in words; `nil` for mismatches (each has its own message).
    package var message: String? {
        switch self {
        case .mismatches: nil
        case .transport(let error): error.message
        case .runTimeout(let problem): problem.message
        case .invalidStep(let problem): problem.message
        case .couldNotRun(let problem): problem.message
        case .interrupted(let problem): problem.message
        case .findings(let findings, _): findings.map { "finding \($0.rule) (\($0.severity.rawValue)): \($0.message) — on \($0.request) [\($0.source)]" }.joined(separator: "\n")
        }
    }

    /// The kind of a run timeout, an invalid step, a step that could not run or an interruption (the JSON report's
    /// `issueKind`); `nil` for the other issues, which carry their own types.
    package var kind: String? {
        switch self {
        case .mismatches, .transport, .findings: nil
        case .runTimeout(let problem): problem.kind.rawValue
        case .invalidStep(let problem): problem.kind.rawValue
        case .couldNotRun(let problem): problem.kind.rawValue
        case .interrupted(let problem): problem.kind.rawValue
        }
    }

    /// Whether the message is diagnostics as lint prints them (a run's input that did not load), each with its own
    /// location and severity: reporters write it as it is, without the step's location or an `error:` before it.
    package var isDiagnostics: Bool {
        if case .invalidStep(let problem) = self { problem.kind == .input } else { false }
    }

    /// The issue with its message rewritten (redaction, a note on retries); mismatches are left as they are.
    func mapMessage(_ transform: (String) -> String) -> StepIssue {
        switch self {
        case .mismatches, .findings: return self
        case .transport(var error):
            error.message = transform(error.message)
            return .transport(error)
        case .runTimeout(var problem):
            problem.message = transform(problem.message)
            return .runTimeout(problem)
        case .invalidStep(var problem):
            problem.message = transform(problem.message)
            return .invalidStep(problem)
        case .couldNotRun(var problem):
            problem.message = transform(problem.message)
            return .couldNotRun(problem)
        case .interrupted(var problem):
            problem.message = transform(problem.message)
            return .interrupted(problem)
        }
    }

    /// Reads an issue back from a JSON report's step (`issue`, `transportCause`, `error`, `mismatches`, `findingGate`
    /// with the step's `findings`); a report written before steps named their issue gives the nearest reading of its
    /// verdict.
    package init?(
        name: String?, verdict: Verdict, message: String?, invalid: Bool, cause: String?, mismatches: [Mismatch],
        findings: [Finding] = [], gate: FindingSeverity? = nil, kind: String? = nil
    ) {
        let text = message ?? "could not run"
        switch name {
        case "finding"?:
            let gate = gate ?? .info
            self = .findings(findings.filter { $0.severity >= gate }, gate: gate)
        case "mismatch"?: self = .mismatches(mismatches)
        case "transport"?: self = .transport(TransportError(cause.flatMap(TransportError.Cause.init(rawValue:)) ?? .other, text))
        case "runTimeout"?: self = .runTimeout(StepProblem(reading: kind, text))
        case "invalidStep"?: self = .invalidStep(StepProblem(reading: kind, text))
        case "couldNotRun"?: self = .couldNotRun(StepProblem(reading: kind, text))
        case "interrupted"?: self = .interrupted(StepProblem(reading: kind, text))
        default:
            switch verdict {
            case .passed, .skipped: return nil
            case .failed: self = .mismatches(mismatches)
            case .error: self = invalid ? .invalidStep(StepProblem(reading: kind, text)) : .couldNotRun(StepProblem(reading: kind, text))
            }
        }
    }
}

/// What kept a step from a verdict, typed: its kind, which code reads (and the JSON report's `issueKind`), and the
/// words that say it, which readers see.
package struct StepProblem<Kind: StepProblemKind>: Sendable, Hashable {
    /// What happened.
    package var kind: Kind
    /// What happened, in words (redacted like every message).
    package var message: String

    /// A problem of `kind`, said by `message`.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A problem read back from a report: its kind when the report named one it knows, else ``StepProblemKind/reported``.
    package init(reading kind: String?, _ message: String) {
        self.init(kind.flatMap(Kind.init(rawValue:)) ?? .reported, message)
    }
}

/// The kinds of one ``StepIssue`` case's problems.
package protocol StepProblemKind: RawRepresentable, Sendable, Hashable where RawValue == String {
    /// Read from a report that did not name the kind.
    static var reported: Self { get }
}

/// How the run timeout ended a step.
package enum RunTimeoutKind: String, StepProblemKind {
    /// The deadline had passed before the case started: it did not run.
    case beforeCase
    /// The deadline passed while the step ran.
    case whileStepRan
    /// The deadline ended a step's `retry:` before its budget was used up.
    case endedRetries
    case reported
}

/// Why a step is invalid as written.
package enum InvalidStepKind: String, StepProblemKind {
    /// A template does not render (an unknown variable, a bad function call).
    case template
    /// The provider's adapter refused the step's parameters, or the target cannot take such a step.
    case step
    /// The run's input did not load (suites, contract, options): no case could run.
    case input
    case reported
}

/// Why a step could not run.
package enum CouldNotRunKind: String, StepProblemKind {
    /// The provider's adapter could not make the request (missing credentials, no control API on the target).
    case provider
    /// The mock's clock could not be put back after a case that moved it.
    case clockNotRestored
    /// A merchant scenario's premise did not happen (no notification reached the backend).
    case premiseNotMet
    /// The provider's service kept failing (class S) after the live target's retries.
    case serviceFailed
    /// The run's surroundings did not come up (a merchant backend that did not start).
    case notStarted
    /// An error PayCheck did not expect.
    case unexpected
    case reported
}

/// What interrupted the run.
package enum InterruptionKind: String, StepProblemKind {
    /// A signal (or the run stopping) while the step ran.
    case stopped
    /// A signal before any case ran (while loading).
    case beforeCases
    /// A second signal: PayCheck quit before the run's results were written.
    case quitTwice
    case reported
}
