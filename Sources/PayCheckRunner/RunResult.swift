package import Foundation
package import PayCheckCore

/// The verdict of a case or step.
package enum Verdict: String, Sendable, Codable {
    /// Every expectation held.
    case passed
    /// An expectation did not hold: a conformance failure.
    case failed
    /// It could not run: transport error, timeout, template error, sandbox down.
    case error
    /// Not run (skip, requirement missing, fail-fast), or an expected failure (xfail).
    case skipped
}

/// One HTTP exchange of a step, already redacted.
package struct Exchange: Sendable {
    /// `POST https://…`.
    package var method: String
    /// The URL.
    package var url: String
    /// Request headers.
    package var requestHeaders: [(name: String, value: String)]
    /// Request body text (cut at 64 KiB).
    package var requestBody: String
    /// Response status, or `nil` when there was no response.
    package var status: Int?
    /// Response headers.
    package var responseHeaders: [(name: String, value: String)]
    /// Response body text (cut at 64 KiB).
    package var responseBody: String
    /// Seconds from send to full response.
    package var duration: Double
    /// The transport error, when there was no response.
    package var error: String?
    /// The attempts a live target's transport retried before this one, each with why and how long it waited
    /// (`attempt 1: HTTP 503, retried after 0.2s`); empty when the first attempt was the last.
    package var retries: [String] = []
    /// The answer as the provider's adapter read it, when that is not the body as sent (MIT's encrypted answer,
    /// decrypted with the merchant's key); `nil` otherwise. Redacted like the body; `paycheck drift` compares it.
    package var readBody: String?

    /// Creates an exchange record.
    package init(
        method: String, url: String, requestHeaders: [(name: String, value: String)], requestBody: String, status: Int?,
        responseHeaders: [(name: String, value: String)], responseBody: String, duration: Double, error: String?
    ) {
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.duration = duration
        self.error = error
    }
}

/// The result of one step (its last attempt when retried).
package struct StepResult: Sendable {
    /// The step's label.
    package var name: String
    /// Where the step is written.
    package var location: SourceLocation
    /// Why it did not pass; `nil` when it passed.
    package var issue: StepIssue?
    /// Its verdict, from its issue.
    package var verdict: Verdict { issue?.verdict ?? .passed }
    /// Failed expectations.
    package var mismatches: [Mismatch] {
        if case .mismatches(let mismatches)? = issue { mismatches } else { [] }
    }
    /// Why it could not run, when `verdict == .error`.
    package var error: String? { issue?.message }
    /// Whether the error is the suite's: the step is invalid as written (exit 2), not a run-time problem.
    package var invalidStep: Bool {
        if case .invalidStep? = issue { true } else { false }
    }
    /// Whether the step failed by findings the run gates on (`--fail-on findings`).
    package var isGatedFinding: Bool {
        if case .findings? = issue { true } else { false }
    }
    /// Whether the run timeout ended the step.
    var isRunTimeout: Bool {
        if case .runTimeout? = issue { true } else { false }
    }
    /// The canonical outcome observed, for provider steps.
    package var outcome: Outcome?
    /// The native state the outcome came from.
    package var nativeState: String?
    /// The provider error code observed, for coverage.
    package var errorCode: ProviderErrorCode?
    /// The provider's own error, `code: message` (redacted), shown under a failed expectation so the reader sees why
    /// the provider refused without opening the transcript.
    package var providerError: String?
    /// The exchanges of the last attempt.
    package var exchanges: [Exchange]
    /// What passed between the mock and the merchant's backend while the step ran (merchant cases only).
    package var evidence: [Evidence] = []
    /// What the mock found wrong with the backend's requests while the step ran.
    package var findings: [Finding] = []
    /// How many attempts ran (1 without retry).
    package var attempts: Int
    /// Seconds, all attempts included.
    package var duration: Double

    /// Creates a step result.
    package init(
        name: String, location: SourceLocation, issue: StepIssue? = nil,
        outcome: Outcome? = nil, nativeState: String? = nil, errorCode: ProviderErrorCode? = nil, exchanges: [Exchange] = [],
        attempts: Int = 1, duration: Double = 0
    ) {
        self.name = name
        self.location = location
        self.issue = issue
        self.outcome = outcome
        self.nativeState = nativeState
        self.errorCode = errorCode
        self.exchanges = exchanges
        self.attempts = attempts
        self.duration = duration
    }
}

/// The result of one case.
package struct CaseResult: Sendable {
    /// The case name.
    package var name: String
    /// Where the case starts.
    package var location: SourceLocation
    /// Its verdict.
    package var verdict: Verdict
    /// Why it was skipped, or the xfail reason.
    package var skipReason: SkipReason?
    /// Tags (suite's and case's).
    package var tags: [String]
    /// The steps that ran, in order (the run stops at the first step that does not pass).
    package var steps: [StepResult]
    /// Seconds.
    package var duration: Double
    /// When it started.
    package var startedAt: Date
    /// What the merchant's backend wrote while the case ran, kept when the case did not pass.
    package var backendOutput: String?
    /// The case's `catches:`: the mistake its failure reveals.
    package var catches: String?
    /// The steps after the one that did not pass, which did not run, as written (`call createSession`).
    package var notRun: [String] = []

    /// What the mock found wrong with the backend's requests during the case, from every step.
    package var findings: [Finding] { self.steps.flatMap(\.findings) }

    /// Creates a case result.
    package init(
        name: String, location: SourceLocation, verdict: Verdict, skipReason: SkipReason? = nil, tags: [String] = [],
        steps: [StepResult] = [], duration: Double = 0, startedAt: Date
    ) {
        self.name = name
        self.location = location
        self.verdict = verdict
        self.skipReason = skipReason
        self.tags = tags
        self.steps = steps
        self.duration = duration
        self.startedAt = startedAt
    }

    /// Whether a step of the case is invalid as written (the suite must change).
    var hasInvalidStep: Bool { steps.contains { $0.invalidStep } }

    /// The first step that did not pass.
    package var failingStep: StepResult? { steps.first { $0.verdict == .failed || $0.verdict == .error } }
}

/// The result of one suite file.
package struct SuiteResult: Sendable {
    /// The file path.
    package var file: String
    /// The suite name.
    package var name: String
    /// The provider id, or `nil` for raw HTTP suites.
    package var provider: String?
    /// Case results in file order.
    package var cases: [CaseResult]
    /// When the first case started.
    package var startedAt: Date
    /// The suite's `description:`, for the reports.
    package var description: String?
    /// The suite's `tags:`.
    package var tags: [String] = []
    /// Whether it is a merchant pack: a case has a `merchant:` step.
    package var isPack = false
    /// Sum of case durations, in seconds.
    package var duration: Double { cases.reduce(0) { $0 + $1.duration } }

    /// Creates a suite result.
    package init(file: String, name: String, provider: String?, cases: [CaseResult], startedAt: Date) {
        self.file = file
        self.name = name
        self.provider = provider
        self.cases = cases
        self.startedAt = startedAt
    }

    /// The result of `suite`, with its description, tags and kind.
    init(of suite: Suite, cases: [CaseResult], startedAt: Date) {
        self.init(file: suite.file, name: suite.name, provider: suite.provider, cases: cases, startedAt: startedAt)
        description = suite.description
        tags = suite.tags
        isPack = suite.cases.contains { $0.steps.contains { $0.merchant != nil } }
    }

    /// Cases with this verdict.
    package func count(_ verdict: Verdict) -> Int { cases.filter { $0.verdict == verdict }.count }
}

/// Counts of case verdicts.
package struct Counts: Sendable, Hashable, Codable {
    /// All cases.
    package var total = 0
    /// Passed.
    package var passed = 0
    /// Failed.
    package var failed = 0
    /// Errored.
    package var errors = 0
    /// Skipped (including xfail).
    package var skipped = 0

    /// Zero counts.
    package init() {}

    /// Adds one verdict.
    package mutating func add(_ verdict: Verdict) {
        total += 1
        switch verdict {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: errors += 1
        case .skipped: skipped += 1
        }
    }
}

/// A provider's mapping table and error catalog, as keys, so reports can show which rows a run covered.
package struct ProviderTable: Sendable, Hashable {
    /// Native state keys (`STATE` or `STATE/REASON`) with their canonical outcome, in table order.
    package var states: [(key: String, outcome: Outcome)]
    /// Error codes with their class, in catalog order.
    package var errorCodes: [ProviderErrorCode]

    /// Creates a table.
    package init(states: [(key: String, outcome: Outcome)], errorCodes: [ProviderErrorCode]) {
        self.states = states
        self.errorCodes = errorCodes
    }

    /// Equality by content.
    package static func == (lhs: ProviderTable, rhs: ProviderTable) -> Bool {
        lhs.states.map(\.key) == rhs.states.map(\.key) && lhs.states.map(\.outcome) == rhs.states.map(\.outcome) && lhs.errorCodes == rhs.errorCodes
    }

    /// Hashes the content.
    package func hash(into hasher: inout Hasher) {
        for s in states { hasher.combine(s.key); hasher.combine(s.outcome) }
        hasher.combine(errorCodes)
    }
}

/// A provider's native error code with its class (C, S, P, A or T): what a step observed, or a catalog row.
package struct ProviderErrorCode: Sendable, Hashable, Comparable {
    /// The class.
    package var errorClass: ErrorClass
    /// The native code, verbatim.
    package var code: String

    /// Creates a code of `errorClass`.
    package init(_ errorClass: ErrorClass, _ code: String) {
        self.errorClass = errorClass
        self.code = code
    }

    /// `class/code`, the key reports sort and name it by.
    package var key: String { "\(errorClass.rawValue)/\(code)" }

    /// By ``key``.
    package static func < (lhs: ProviderErrorCode, rhs: ProviderErrorCode) -> Bool { lhs.key < rhs.key }
}

/// Everything a run produced: the input of every reporter.
package struct RunResult: Sendable {
    /// Suite results, in plan order.
    package var suites: [SuiteResult]
    /// The target, e.g. `mock`, `url=http://…`.
    package var target: String
    /// The target kind: `mock`, `sandbox`, `url`.
    package var targetKind: String
    /// The runner version.
    package var version: String
    /// The machine's host name.
    package var hostname: String
    /// When the run started.
    package var startedAt: Date
    /// Wall-clock seconds of the run.
    package var duration: Double
    /// The mapping tables and error catalogs of the providers the run used, by provider id.
    package var providerTables: [String: ProviderTable]
    /// Why the run checked less than it selected (no case ran; a provider without sandbox credentials).
    package var notChecked: [String] = []
    /// The selected providers the run could not check (no credentials for the live target), by id.
    package var providersNotChecked: [String] = []
    /// Whether a run that checked nothing may pass (`--allow-empty`).
    package var allowEmpty = false
    /// Whether every selected provider must have been checked (`--require-all-providers`): exit 4 otherwise.
    package var requireAllProviders = false

    /// Whether no case ran (every selected case was skipped, or none was selected).
    package var nothingRan: Bool { !suites.contains { $0.cases.contains { !$0.steps.isEmpty } } }

    /// Whether the run checked too little to pass: nothing ran, or (with `--require-all-providers`) a selected provider
    /// was not checked. `--allow-empty` accepts both.
    var checkedTooLittle: Bool {
        !allowEmpty && ((nothingRan && !notChecked.isEmpty) || (requireAllProviders && !providersNotChecked.isEmpty))
    }
    /// Whether a signal stopped the run: cases not started are skipped as "interrupted", running ones errored.
    package var interrupted = false
    /// Problems with the run's setup that did not stop it, such as a secret too short to be redacted.
    package var warnings: [String]
    /// Identifies the run across its shards (``RunConfiguration/runId``).
    package var runId = ""
    /// Which shard this is (`--shard k/n`), or `nil` for a whole run (and a merge of all shards).
    package var shard: (index: Int, count: Int)?
    /// ``RunPlan/selectionDigest``: the same for every shard of one run over the same suites.
    package var suiteDigest = ""
    /// The reports a merge was made of, when this result is a merge.
    package var mergedFrom = 0
    /// The comparison with a previous run, when `--baseline` gave one.
    package var baseline: BaselineComparison?
    /// Where the run happened, for the reports' environment panel: the commit and the CI job, as `(label, value)`
    /// pairs (a value that is a URL is linked). Empty outside CI.
    package var context: [(label: String, value: String)] = []
    /// What fails the gate; `.newFailures` needs a ``baseline``.
    package var failOn: FailOn = .any

    /// Creates a run result.
    package init(
        suites: [SuiteResult], target: String, targetKind: String, version: String, hostname: String, startedAt: Date, duration: Double,
        providerTables: [String: ProviderTable] = [:], warnings: [String] = []
    ) {
        self.suites = suites
        self.target = target
        self.targetKind = targetKind
        self.version = version
        self.hostname = hostname
        self.startedAt = startedAt
        self.duration = duration
        self.providerTables = providerTables
        self.warnings = warnings
    }

    /// Counts over every case.
    package var counts: Counts {
        var c = Counts()
        for suite in suites { for testCase in suite.cases { c.add(testCase.verdict) } }
        return c
    }

    /// The process exit code: 0 every case passed, 1 conformance failures, 2 a step invalid as written (the suite
    /// must change), 3 could not run, 4 nothing (or not everything selected) was checked. An invalid step wins,
    /// then errors, then failures; 4 only when nothing else went wrong, and never with `--allow-empty`. A run
    /// stopped by SIGINT or SIGTERM is 130 whatever it found, since it is not a whole verdict.
    package var exitCode: Int32 {
        let c = counts
        if interrupted { return 130 }
        if suites.contains(where: { $0.cases.contains { $0.hasInvalidStep } }) { return 2 }
        if failOn == .newFailures, let baseline {
            // Only regressions count: cases that fail or error now and did not before, and new cases that do.
            let regressions = baseline.newlyFailing + baseline.failingAdded
            if regressions.contains(where: { $0.after == .error }) { return 3 }
            if !regressions.isEmpty { return 1 }
            if checkedTooLittle { return 4 }
            return 0
        }
        if c.errors > 0 { return 3 }
        if c.failed > 0 { return 1 }
        if checkedTooLittle { return 4 }
        return 0
    }

    /// The ``notChecked`` reason of a run (or shard) whose selection has no case.
    package static let nothingSelected = "no cases selected (check the paths, --tag, --skip-tag, --filter and --shard)"

    /// Every finding on the merchant's backend, in case order.
    package var findings: [Finding] {
        suites.flatMap(\.cases).flatMap(\.findings)
    }

    /// Whether every case that did not pass failed only because its backend broke a rule the run gates on
    /// (``StepIssue/findings(_:gate:)``), and at least one did.
    package var failedOnlyByFindings: Bool {
        let unpassed = suites.flatMap(\.cases).filter { $0.verdict == .failed || $0.verdict == .error }
        return !unpassed.isEmpty
            && unpassed.allSatisfy { testCase in
                if case .findings? = testCase.failingStep?.issue { true } else { false }
            }
    }

    /// The verdict in words, as every report shows it.
    package var verdictWord: String {
        switch exitCode {
        case 0 where failOn == .newFailures && (counts.failed + counts.errors) > 0: "no new failures"
        case 0 where notChecked.isEmpty: "conformant"
        case 0 where nothingRan: "nothing checked (allowed by --allow-empty)"
        case 0: "conformant for what was checked; not checked: " + providersNotChecked.joined(separator: ", ")
        case 1 where failedOnlyByFindings: "findings on the merchant's backend"
        case 1: "not conformant"
        case 2: "suite invalid"
        case 3 where counts.errors < counts.total - counts.skipped: "could not run \(counts.errors) of \(counts.total - counts.skipped) cases"
        case 3: "could not run"
        case 130: "interrupted"
        case 4 where !nothingRan: "not every provider checked: " + providersNotChecked.joined(separator: ", ")
        default: "nothing checked"
        }
    }
}

/// What the runner reports while it works, for live console progress.
package enum RunEvent: Sendable {
    /// The run starts with this many cases.
    case started(total: Int, target: String)
    /// A case starts running (not sent for cases that are skipped without running).
    case caseStarted(suite: Suite, name: String)
    /// A case finished.
    case caseFinished(suite: Suite, result: CaseResult)
    /// Every case of a suite finished.
    case suiteFinished(SuiteResult)
    /// Time passed (about every ``RunConfiguration/progressInterval`` of real time): live progress may refresh.
    case tick
    /// A problem with the run's setup that does not stop it (also in ``RunResult/warnings``).
    case warning(String)
    /// What the run does around its cases, worth a line: e.g. starting the merchant's backend.
    case note(String)
}

/// The runner version, shown by `paycheck version` and written into reports.
package let payCheckVersion = "0.1.0"
