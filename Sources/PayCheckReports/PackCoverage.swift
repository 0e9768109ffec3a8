import PayCheckRunner

/// What a merchant pack covered against one backend: how many of its scenarios ran, and which ones the backend's
/// contract left out (a `merchant: return` with no `return:` page, say), so a green run says what it did not check.
struct PackCoverage {
    /// The pack's suite.
    var suite: SuiteResult
    /// How many of its scenarios ran (passed, failed or errored).
    var ran: Int
    /// The scenarios the contract left out, with why.
    var leftOut: [(name: String, reason: String)]

    /// One entry per merchant pack (a suite with a `merchant:` step), in run order.
    static func of(_ result: RunResult) -> [PackCoverage] {
        result.suites.compactMap { suite in
            let leftOut = suite.cases.compactMap { testCase -> (String, String)? in
                guard testCase.verdict == .skipped, let reason = testCase.skipReason, reason.kind == .notInContract else { return nil }
                return (testCase.name, reason.detail)
            }
            guard suite.isPack else { return nil }
            return PackCoverage(suite: suite, ran: suite.cases.count { $0.verdict != .skipped }, leftOut: leftOut)
        }
    }

    /// `8 of 9 scenarios ran; left out by the contract: …`.
    var summary: String {
        var line = "\(ran) of \(suite.cases.count) scenarios ran"
        if !leftOut.isEmpty { line += "; left out by the contract: " + leftOut.map { "\($0.name) (\($0.reason))" }.joined(separator: "; ") }
        return line
    }
}
