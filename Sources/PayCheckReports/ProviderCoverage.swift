import PayCheckCore
import PayCheckRunner

/// What a run exercised of one provider: the outcomes, native states and error codes its steps observed,
/// and which rows of its mapping table and error catalog that covers. Shared by every reporter.
struct ProviderCoverage {
    /// Canonical outcomes observed.
    var outcomes: Set<Outcome> = []
    /// Native states (mapping-row keys) observed.
    var states: Set<String> = []
    /// Error codes observed.
    var errorCodes: Set<ProviderErrorCode> = []
    /// The provider's table, when the run knows it.
    var table: ProviderTable?

    /// The codes observed, without their class.
    var codes: Set<String> { Set(errorCodes.map(\.code)) }

    /// The catalog's codes in order, each once (a code may appear with two HTTP statuses).
    var catalogCodes: [String] {
        var out: [String] = []
        for entry in table?.errorCodes ?? [] where !out.contains(entry.code) { out.append(entry.code) }
        return out
    }

    /// Mapping rows observed.
    var coveredStates: Int { (table?.states ?? []).filter { states.contains($0.key) }.count }
    /// Catalog codes observed.
    var coveredCodes: Int { catalogCodes.filter { codes.contains($0) }.count }
    /// `10/10 mapped states, 15/17 error codes`.
    var summary: String {
        "\(coveredStates)/\(table?.states.count ?? 0) mapped states, \(coveredCodes)/\(catalogCodes.count) error codes"
    }

    /// Coverage per provider id, for every provider suite in the run (raw HTTP suites are left out).
    static func of(_ result: RunResult) -> [String: ProviderCoverage] {
        var out: [String: ProviderCoverage] = [:]
        for suite in result.suites {
            guard let provider = suite.provider, !provider.isEmpty else { continue }
            var coverage = out[provider] ?? ProviderCoverage(table: result.providerTables[provider])
            for step in suite.cases.flatMap(\.steps) {
                if let outcome = step.outcome { coverage.outcomes.insert(outcome) }
                if let state = step.nativeState { coverage.states.insert(state) }
                if let code = step.errorCode { coverage.errorCodes.insert(code) }
            }
            out[provider] = coverage
        }
        return out
    }
}
