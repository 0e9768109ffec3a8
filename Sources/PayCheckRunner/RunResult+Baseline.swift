package import PayCheckCore
/// One case's identity across runs: its file and name (names are unique within a file).
package struct CaseKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The suite file.
    package var file: String
    /// The suite name: a file with `rows:` holds several suites.
    package var suite: String
    /// The case name.
    package var name: String

    /// Creates a key.
    package init(file: String, suite: String, name: String) {
        self.file = file
        self.suite = suite
        self.name = name
    }

    /// `file › suite › name`.
    package var description: String { "\(file) › \(suite) › \(name)" }

    /// By file, then suite, then name.
    package static func < (lhs: CaseKey, rhs: CaseKey) -> Bool { (lhs.file, lhs.suite, lhs.name) < (rhs.file, rhs.suite, rhs.name) }
}

/// What changed since a previous run of the same suites (`--baseline PREVIOUS.json`).
package struct BaselineComparison: Sendable {
    /// A case whose verdict changed, with both verdicts.
    package struct Change: Sendable {
        /// The case.
        package var key: CaseKey
        /// Its verdict in the previous run, or `nil` for a new case.
        package var before: Verdict?
        /// Its verdict now.
        package var after: Verdict
    }

    /// The baseline file, as given.
    package var file: String
    /// Cases that fail or error now and passed or were skipped before (new cases that fail are in ``added``).
    package var newlyFailing: [Change]
    /// Cases that pass now and failed or errored before.
    package var newlyPassing: [Change]
    /// Cases the previous run did not have, with their verdict now.
    package var added: [Change]
    /// Cases of the previous run that this run does not have, with their verdict then.
    package var removed: [(key: CaseKey, before: Verdict)]

    /// Compares `current` with `previous`, case by case.
    package init(file: String, current: RunResult, previous: RunResult) {
        func verdicts(_ result: RunResult) -> [CaseKey: Verdict] {
            var map: [CaseKey: Verdict] = [:]
            for suite in result.suites {
                for testCase in suite.cases { map[CaseKey(file: suite.file, suite: suite.name, name: testCase.name)] = testCase.verdict }
            }
            return map
        }
        let now = verdicts(current)
        let before = verdicts(previous)
        func bad(_ verdict: Verdict) -> Bool { verdict == .failed || verdict == .error }
        self.file = file
        self.newlyFailing = now.compactMap { key, verdict in
            guard let was = before[key], bad(verdict), !bad(was) else { return nil }
            return Change(key: key, before: was, after: verdict)
        }.sorted { $0.key < $1.key }
        self.newlyPassing = now.compactMap { key, verdict in
            guard let was = before[key], verdict == .passed, bad(was) else { return nil }
            return Change(key: key, before: was, after: verdict)
        }.sorted { $0.key < $1.key }
        self.added = now.filter { before[$0.key] == nil }.map { Change(key: $0.key, before: nil, after: $0.value) }
            .sorted { $0.key < $1.key }
        self.removed = before.filter { now[$0.key] == nil }.map { (key: $0.key, before: $0.value) }.sorted { $0.key < $1.key }
    }

    /// New cases that fail or error: regressions too, for `--fail-on new-failures`.
    var failingAdded: [Change] { self.added.filter { $0.after == .failed || $0.after == .error } }

    /// Whether nothing changed.
    package var isEmpty: Bool { newlyFailing.isEmpty && newlyPassing.isEmpty && added.isEmpty && removed.isEmpty }
}

/// What fails the gate (`--fail-on`).
package enum FailOn: String, Sendable, CaseIterable {
    /// Any failure or error (the default).
    case any
    /// Only cases that fail or error now and did not in the baseline (and new cases that fail).
    case newFailures = "new-failures"
    /// Any failure or error, and any finding on the merchant's backend.
    case findings
    /// Any failure or error, and any finding of severity warning or error.
    case findingWarnings = "findings:warning"
    /// Any failure or error, and any finding of severity error.
    case findingErrors = "findings:error"

    /// The least severity of a finding that fails the gate; `nil` when findings do not.
    package var findingThreshold: FindingSeverity? {
        switch self {
        case .any, .newFailures: nil
        case .findings: .info
        case .findingWarnings: .warning
        case .findingErrors: .error
        }
    }
}
