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
    case runTimeout(String)
    /// The step is invalid as written: the suite must change (exit 2).
    case invalidStep(String)
    /// The step could not run for a reason that is neither the suite's nor a conformance failure: the target has no
    /// control API, the mock clock could not be restored, the mock refused a control request.
    case couldNotRun(String)
    /// The run was interrupted (a signal, or the run stopping) before the step ended.
    case interrupted(String)
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

    /// The name reports give the issue: the JSON report's `issue` and the JUnit `type` of an error.
    package var name: String {
        switch self {
        case .mismatches: "mismatch"
        case .transport: "transport"
        case .runTimeout: "runTimeout"
        case .invalidStep: "invalidStep"
        case .couldNotRun: "couldNotRun"
        case .interrupted: "interrupted"
        case .findings: "finding"
        }
    }

    /// Why the step could not run, in words; `nil` for mismatches (each has its own message).
    package var message: String? {
        switch self {
        case .mismatches: nil
        case .transport(let error): error.message
        case .runTimeout(let text), .invalidStep(let text), .couldNotRun(let text), .interrupted(let text): text
        case .findings(let findings, _): findings.map { "finding \($0.rule) (\($0.severity.rawValue)): \($0.message) — on \($0.request) [\($0.source)]" }.joined(separator: "\n")
        }
    }

    /// The issue with its message rewritten (redaction, a note on retries); mismatches are left as they are.
    func mapMessage(_ transform: (String) -> String) -> StepIssue {
        switch self {
        case .mismatches, .findings: return self
        case .transport(var error):
            error.message = transform(error.message)
            return .transport(error)
        case .runTimeout(let text): return .runTimeout(transform(text))
        case .invalidStep(let text): return .invalidStep(transform(text))
        case .couldNotRun(let text): return .couldNotRun(transform(text))
        case .interrupted(let text): return .interrupted(transform(text))
        }
    }

    /// Reads an issue back from a JSON report's step (`issue`, `transportCause`, `error`, `mismatches`, `findingGate`
    /// with the step's `findings`); a report written before steps named their issue gives the nearest reading of its
    /// verdict.
    package init?(
        name: String?, verdict: Verdict, message: String?, invalid: Bool, cause: String?, mismatches: [Mismatch],
        findings: [Finding] = [], gate: FindingSeverity? = nil
    ) {
        let text = message ?? "could not run"
        switch name {
        case "finding"?:
            let gate = gate ?? .info
            self = .findings(findings.filter { $0.severity >= gate }, gate: gate)
        case "mismatch"?: self = .mismatches(mismatches)
        case "transport"?: self = .transport(TransportError(cause.flatMap(TransportError.Cause.init(rawValue:)) ?? .other, text))
        case "runTimeout"?: self = .runTimeout(text)
        case "invalidStep"?: self = .invalidStep(text)
        case "couldNotRun"?: self = .couldNotRun(text)
        case "interrupted"?: self = .interrupted(text)
        default:
            switch verdict {
            case .passed, .skipped: return nil
            case .failed: self = .mismatches(mismatches)
            case .error: self = invalid ? .invalidStep(text) : .couldNotRun(text)
            }
        }
    }
}
