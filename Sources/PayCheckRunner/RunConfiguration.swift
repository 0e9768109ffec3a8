import Foundation
import PayCheckCore

/// Everything a run is configured with; the CLI fills it from flags, tests build it directly.
public struct RunConfiguration: Sendable {
    /// Where requests go.
    public var target: Target = .mock
    /// How many cases run at once.
    public var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// `--var` values (override suite vars and the profile).
    public var variables: [String: Value] = [:]
    /// `--secret` values: usable like variables, redacted from every output.
    public var secrets: [String: String] = [:]
    /// Only cases with one of these tags (empty = all).
    public var tags: [String] = []
    /// Cases with any of these tags are left out.
    public var skipTags: [String] = []
    /// Only cases whose `suite name › case name` contains this text (case-insensitive).
    public var filter: String?
    /// Run only shard `index` (1-based) of `count`.
    public var shard: (index: Int, count: Int)?
    /// Identifies the run across its shards (`--run-id`, or the CI's run id); written into the reports.
    public var runId = ""
    /// Whether `--target sandbox` may use credentials a provider calls live (`--allow-live`).
    public var allowLive = false
    /// Stop starting new cases after the first failure or error.
    public var failFast = false
    /// Seconds one HTTP exchange may take unless a step says otherwise.
    public var stepTimeout: Double = 30
    /// Seconds the whole run may take (`nil` = unlimited).
    public var runTimeout: Double?
    /// The process environment (for `env()` and sandbox credentials).
    public var environment: [String: String] = [:]
    /// Seconds of real time between ``RunEvent/tick`` events, which refresh live progress while cases run
    /// (`nil` = none).
    public var progressInterval: Double? = 1
    /// Which cases keep their HTTP exchanges in the result (and so in the reports).
    public var transcripts: TranscriptPolicy = .failed

    /// The clock scope sent to the mock host; `nil` draws a fresh one per run.
    public var clockScope: String?
    /// The merchant's backend under test and its contract (`--contract`); `merchant:` steps need it.
    public var merchant: MerchantTarget?
    /// The token a standalone mock listening beyond loopback requires on its control API (`--control-token`); sent
    /// with every request to the mock host and redacted like a secret.
    public var controlToken: String?

    /// Whether a run that checked nothing may pass (`--allow-empty`); by default it exits 4.
    public var allowEmpty = false

    /// Creates the default configuration.
    public init() {}
}

/// Which cases keep their request/response exchanges for the reports.
public enum TranscriptPolicy: String, Sendable, CaseIterable {
    /// Only cases that failed or errored: what a reader needs, and a run's memory stays small
    /// however many cases pass.
    case failed
    /// Every case.
    case all
    /// None: reports list the steps only.
    case none
}
