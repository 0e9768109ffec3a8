package import PayCheckCore

/// A run against a merchant's own backend, reached through its contract (`paycheck run --contract FILE`).
package struct MerchantTarget: Sendable {
    /// The contract.
    package var contract: MerchantContract
    /// The backend's base URL, rendered.
    package var backendURL: String
    /// What the backend writes, when the run started it.
    package var output: (any BackendOutput)?
    /// The contract's run variables (`port`, `backend.url`, `credentials`; `mock.url` as the backend has it is
    /// `backendMock.url`), in scope in its requests.
    package var variables: [String: Value]
    /// The severity from which a finding on the backend fails its case (`--fail-on findings[:severity]`); `nil`:
    /// findings are reported and fail nothing.
    package var findingGate: FindingSeverity?

    /// Creates a target.
    package init(
        contract: MerchantContract, backendURL: String, output: (any BackendOutput)? = nil, variables: [String: Value] = [:], findingGate: FindingSeverity? = nil
    ) {
        self.contract = contract
        self.backendURL = backendURL
        self.output = output
        self.variables = variables
        self.findingGate = findingGate
    }
}

extension MerchantTarget {
    /// Fails each step whose requests broke a rule of `gate` severity or more (``StepIssue/findings(_:gate:)``), which
    /// every report and the exit code read. Whether any step failed.
    package static func failOnFindings(_ steps: inout [StepResult], gate: FindingSeverity) -> Bool {
        var failed = false
        for index in steps.indices where steps[index].issue == nil {
            let gated = steps[index].findings.filter { $0.severity >= gate }
            guard !gated.isEmpty else { continue }
            steps[index].issue = .findings(gated, gate: gate)
            failed = true
        }
        return failed
    }
}

/// The output of a backend process the run started, so a failing case can show what it wrote meanwhile.
package protocol BackendOutput: Sendable {
    /// A mark for "now": the amount written so far.
    var mark: Int { get }
    /// What was written since `mark` (the end of it, when it is long).
    func text(since mark: Int) -> String
}
