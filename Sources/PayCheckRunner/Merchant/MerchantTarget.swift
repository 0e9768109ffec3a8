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

    /// Creates a target.
    package init(contract: MerchantContract, backendURL: String, output: (any BackendOutput)? = nil, variables: [String: Value] = [:]) {
        self.contract = contract
        self.backendURL = backendURL
        self.output = output
        self.variables = variables
    }
}

/// The output of a backend process the run started, so a failing case can show what it wrote meanwhile.
package protocol BackendOutput: Sendable {
    /// A mark for "now": the amount written so far.
    var mark: Int { get }
    /// What was written since `mark` (the end of it, when it is long).
    func text(since mark: Int) -> String
}
