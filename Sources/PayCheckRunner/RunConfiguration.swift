import Foundation
package import PayCheckCore

/// Everything a run is configured with; the CLI fills it from flags, tests build it directly.
package struct RunConfiguration: Sendable {
    /// Where requests go.
    package var target: Target = .mock
    /// How many cases run at once.
    package var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// `--var` values (override suite vars and the profile).
    package var variables: [String: Value] = [:]
    /// The `--var` values as written on the command line: a variable the suite declares as a string
    /// (`amount: "10.50"`) keeps the text given (`--var amount=12990` stays `"12990"`, not a number), so an override
    /// never changes what the suite sends.
    package var variableTexts: [String: String] = [:]
    /// `--secret` values: usable like variables, redacted from every output.
    package var secrets: [String: String] = [:]
    /// Only cases with one of these tags (empty = all).
    package var tags: [String] = []
    /// Cases with any of these tags are left out.
    package var skipTags: [String] = []
    /// Only cases whose `suite name › case name` contains this text (case-insensitive).
    package var filter: String?
    /// Run only shard `index` (1-based) of `count`.
    package var shard: (index: Int, count: Int)?
    /// Identifies the run across its shards (`--run-id`, or the CI's run id); written into the reports.
    package var runId = ""
    /// Whether `--target sandbox` may use credentials a provider calls live (`--allow-live`).
    package var allowLive = false
    /// Stop starting new cases after the first failure or error.
    package var failFast = false
    /// Seconds one HTTP exchange may take unless a step says otherwise.
    package var stepTimeout: Double = 30
    /// Seconds the whole run may take (`nil` = unlimited).
    package var runTimeout: Double?
    /// The process environment (for `env()` and sandbox credentials).
    package var environment: [String: String] = [:]
    /// Seconds of real time between ``RunEvent/tick`` events, which refresh live progress while cases run
    /// (`nil` = none).
    package var progressInterval: Double? = 1
    /// Which cases keep their HTTP exchanges in the result (and so in the reports).
    package var transcripts: TranscriptPolicy = .failed

    /// The clock scope sent to the mock host; `nil` draws a fresh one per run.
    package var clockScope: String?
    /// The token a standalone mock listening beyond loopback requires on its control API (`--control-token`); sent
    /// with every request to the mock host and redacted like a secret.
    package var controlToken: String?

    /// Where `--record DIR` collects the run's exchanges, case by case.
    package var recording: RunRecording?
    /// The recording `--target replay=DIR` plays back instead of sending anything.
    package var replay: Replay?

    /// Whether a run that checked nothing may pass (`--allow-empty`); by default it exits 4.
    package var allowEmpty = false
    /// Whether every selected provider must be checked (`--require-all-providers`): a provider without credentials for
    /// the live target then makes the run exit 4; by default the run exits by the cases that ran.
    package var requireAllProviders = false

    /// Creates the default configuration.
    package init() {}

    /// Replays `cases`, recorded in `directory` on a target whose providers answered at `baseURLs`
    /// (`--target replay=DIR`): a live target on those URLs, no retries, every answer from the recording.
    package mutating func replay(_ cases: [RunRecording.Case], from directory: String, baseURLs: [String: String]) {
        var target = LiveTarget(name: "replay=\(directory)", baseURLs: baseURLs)
        target.retry.attempts = 1
        self.target = .live(target)
        self.replay = Replay(directory: directory, cases: cases)
    }
}

/// Which cases keep their request/response exchanges for the reports.
package enum TranscriptPolicy: String, Sendable, CaseIterable {
    /// Only cases that failed or errored: what a reader needs, and a run's memory stays small
    /// however many cases pass.
    case failed
    /// Every case.
    case all
    /// None: reports list the steps only.
    case none
}
