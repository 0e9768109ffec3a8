import Foundation
package import PayCheckCore
package import PayCheckProviders
import Synchronization

/// Executes a plan: cases in parallel in a bounded task group, steps within a case in order.
/// Emits events for live progress and returns a `RunResult`; it never prints.
package struct Runner: Sendable {
    /// The run's configuration.
    package var configuration: RunConfiguration
    /// The providers suites may use.
    package var providers: ProviderRegistry
    /// Sends HTTP.
    package var transport: any HTTPTransport
    /// Sends a provider's HTTP on a live target where it differs from ``transport`` (its own TLS), by provider id.
    package var providerBases: [String: any HTTPTransport] = [:]
    /// Time for `wait:`, `retry:` and `now()`.
    package var clock: any RunnerClock
    /// Random numbers for `uuid()` and `random()`.
    package var random: @Sendable () -> UInt64
    /// Seconds added to ``clock`` for a template's `now()`: a replayed case's recorded start minus its start now.
    var nowOffset: TimeInterval = 0
    /// The host name written into reports.
    package var hostname: String

    /// Creates a runner.
    package init(
        configuration: RunConfiguration, providers: ProviderRegistry, transport: any HTTPTransport,
        clock: any RunnerClock = SystemRunnerClock(), random: @escaping @Sendable () -> UInt64 = { UInt64.random(in: .min ... .max) },
        hostname: String = ProcessInfo.processInfo.hostName
    ) {
        self.configuration = configuration
        self.providers = providers
        self.transport = transport
        self.clock = clock
        self.random = random
        self.hostname = hostname
    }

    /// Random bytes from the injected source.
    var randomBytes: @Sendable (Int) -> [UInt8] {
        let random = self.random
        return { count in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count + 8)
            while bytes.count < count { withUnsafeBytes(of: random()) { bytes += $0 } }
            return Array(bytes.prefix(count))
        }
    }

    /// The credentials a provider uses on the configured target.
    package func credentials(for provider: any Provider) -> [String: String] {
        // A replay sends nothing: the mock's test values sign requests that only have to be built.
        guard configuration.replay == nil, let target = configuration.target.live else { return provider.mockCredentials }
        return target.credentials(for: provider, environment: configuration.environment)
    }

    /// Whether every credential of a provider is available for the sandbox.
    package func hasCredentials(_ providerID: String) -> Bool {
        guard let provider = providers[providerID] else { return false }
        let creds = credentials(for: provider)
        return provider.credentialFields.filter(\.required).allSatisfy { creds[$0.name] != nil }
    }

    /// Runs the plan. `controlURL` is the mock host's base URL for `mock`/`url` targets.
    ///
    /// With a run timeout, the deadline is on the runner's clock: `wait:` and `retry:` never sleep past it,
    /// exchanges get at most the time left, and when it passes every running case is cancelled and reported
    /// as timed out (an error); cases not started by then are errors too.
    ///
    /// Every request to the mock host carries this run's clock scope (``ControlAPI/clockScopeHeader``), so runs and
    /// CI shards that share one standalone mock never see each other's `mock: clock` moves. When the task running
    /// the plan is cancelled (SIGINT/SIGTERM), no new case starts and the result is marked interrupted.
    ///
    /// `merchant`: the merchant's backend `merchant:` steps reach (``MerchantTarget``), when the session started one.
    package func run(
        _ plan: RunPlan, controlURL: String?, merchant: MerchantTarget? = nil, onEvent: @escaping @Sendable (RunEvent) -> Void = { _ in }
    ) async -> RunResult {
        guard let controlURL, !(transport is ScopedTransport) else {
            return await execute(plan, controlURL: controlURL, merchant: merchant, onEvent: onEvent)
        }
        var scoped = self
        let scope = configuration.clockScope ?? "run-" + String(random() % 0xFFFF_FFFF_FFFF, radix: 16)
        scoped.configuration.clockScope = scope
        scoped.transport = ScopedTransport(
            base: transport, prefix: controlURL, scope: scope, controlToken: configuration.controlToken)
        return await scoped.execute(plan, controlURL: controlURL, merchant: merchant, onEvent: onEvent)
    }

    /// The redactor of a run: every secret it knows (`--secret` values, the control token, each provider's secret
    /// credentials, the merchant accounts' secrets) and the providers' secret field names.
    package var redactor: Redactor {
        var secrets = Array(configuration.secrets.values)
        if let controlToken = configuration.controlToken { secrets.append(controlToken) }
        for provider in providers.all {
            let creds = credentials(for: provider)
            for field in provider.credentialFields where field.secret { if let v = creds[field.name] { secrets.append(v) } }
        }
        return Redactor(secrets: secrets, fieldNames: Redactor.FieldNames(providers.all.flatMap(\.secretFieldNames)))
    }

    /// Runs the plan with the transport as it is.
    private func execute(_ plan: RunPlan, controlURL: String?, merchant: MerchantTarget?, onEvent: @escaping @Sendable (RunEvent) -> Void) async -> RunResult {
        let startedAt = Date()
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let deadline = configuration.runTimeout.map { clock.now().addingTimeInterval($0) }
        onEvent(.started(total: plan.items.count, target: configuration.target.description))

        let redactor = self.redactor
        let warnings = WarningLog(onEvent: onEvent)
        for warning in shortSecretWarnings() { warnings.add(warning) }
        let tracker = Mutex(Tracker(plan: plan))
        let failed = StopFlag()
        let context = CaseContext(
            controlURL: controlURL, redactor: redactor, deadline: deadline, stop: failed, warnings: warnings, onEvent: onEvent,
            providerTransports: liveTransports(), merchant: merchant)

        let results: [CaseResult] = await withTaskGroup(of: GroupTask.self) { group in
            var results = [CaseResult?](repeating: nil, count: plan.items.count)
            var next = 0
            var running = 0
            var exclusiveRunning = false
            let width = max(1, configuration.jobs)
            /// Starts cases while there is room; an exclusive case waits for an empty group and blocks others.
            func fill() {
                // Once the run is interrupted (SIGINT/SIGTERM cancel it), no new case starts.
                while next < plan.items.count, running < width, !exclusiveRunning, !Task.isCancelled {
                    let item = plan.items[next]
                    let isExclusive = item.exclusive && item.skipReason == nil
                    if isExclusive && running > 0 { return }
                    let index = next
                    next += 1
                    running += 1
                    exclusiveRunning = isExclusive
                    group.addTask {
                        let suite = plan.suites[item.suiteIndex]
                        let result = await self.runCase(item, suite: suite, context: context)
                        return .caseFinished(index, result)
                    }
                }
            }
            if let deadline, !plan.items.isEmpty {
                // The watchdog: when the deadline passes, every running case is cancelled (and reports a
                // timeout); cases started later see the cancellation and do not run.
                let clock = self.clock
                group.addTask {
                    try? await clock.sleep(until: deadline)
                    return .deadlinePassed
                }
            }
            if let interval = configuration.progressInterval, interval > 0, !plan.items.isEmpty {
                // Real time, not the runner's clock: it only paces the live display, and a virtual clock would spin.
                group.addTask {
                    while (try? await Task.sleep(nanoseconds: UInt64(min(interval, 3600) * 1e9))) != nil { onEvent(.tick) }
                    return .tickerStopped
                }
            }
            fill()
            while let outcome = await group.next() {
                let (index, result): (Int, CaseResult)
                switch outcome {
                case .caseFinished(let finishedIndex, let finishedResult): (index, result) = (finishedIndex, finishedResult)
                case .deadlinePassed:
                    group.cancelAll()
                    continue
                case .tickerStopped:
                    continue
                }
                running -= 1
                exclusiveRunning = false
                results[index] = result
                if configuration.failFast, result.verdict == .failed || result.verdict == .error { failed.set() }
                let item = plan.items[index]
                let suite = plan.suites[item.suiteIndex]
                onEvent(.caseFinished(suite: suite, result: result))
                for finished in tracker.withLock({ $0.finish(index, result) }) { onEvent(.suiteFinished(finished)) }
                fill()
                // Every case is done: end the watchdog and the ticker.
                if next == plan.items.count, running == 0 { group.cancelAll() }
            }
            return results.enumerated().map { i, r in
                let testCase = plan.suites[plan.items[i].suiteIndex].cases[plan.items[i].caseIndex]
                return r
                    ?? CaseResult(
                        name: testCase.name, location: testCase.location, verdict: .skipped,
                        skipReason: .interrupted, startedAt: startedAt)
            }
        }

        var casesBySuite = [[CaseResult]](repeating: [], count: plan.suites.count)
        for (index, item) in plan.items.enumerated() { casesBySuite[item.suiteIndex].append(results[index]) }
        var suites: [SuiteResult] = []
        for (suiteIndex, suite) in plan.suites.enumerated() {
            let cases = casesBySuite[suiteIndex]
            let start = cases.map(\.startedAt).min() ?? startedAt
            suites.append(SuiteResult(of: suite, cases: cases, startedAt: start))
        }
        var tables: [String: ProviderTable] = [:]
        for id in Set(plan.suites.compactMap(\.provider)) {
            guard let provider = providers[id] else { continue }
            tables[id] = ProviderTable(
                states: provider.outcomeMapping.rules.map { ($0.key, $0.outcome) },
                errorCodes: provider.errorCatalog.entries.map { ProviderErrorCode($0.errorClass, $0.code) })
        }
        var result = RunResult(
            suites: suites, target: redactor.redact(configuration.target.description), targetKind: configuration.target.kind,
            version: payCheckVersion, hostname: hostname, startedAt: startedAt,
            duration: Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9, providerTables: tables, warnings: warnings.all)
        result.interrupted = Task.isCancelled
        (result.notChecked, result.providersNotChecked) = notChecked(plan, suites)
        result.allowEmpty = configuration.allowEmpty
        result.requireAllProviders = configuration.requireAllProviders
        result.runId = configuration.runId
        result.shard = configuration.shard
        result.suiteDigest = plan.selectionDigest
        return result
    }

    /// On a live target, each provider's ``LiveTransport`` over the run's transport; none on the mock.
    func liveTransports() -> [String: any HTTPTransport] {
        guard let target = configuration.target.live else { return [:] }
        var transports: [String: any HTTPTransport] = [:]
        for provider in providers.all {
            transports[provider.id] = LiveTransport(
                base: providerBases[provider.id] ?? transport, provider: provider.id, endpoint: target.providers[provider.id] ?? .init(), retry: target.retry, clock: clock)
        }
        return transports
    }

    /// Why the run checked less than it selected — no case ran at all, or a provider was skipped for lack of
    /// sandbox credentials (DESIGN.md §6: a run that checked nothing is never green) — and the providers not checked:
    /// one computation for both.
    func notChecked(_ plan: RunPlan, _ suites: [SuiteResult]) -> (reasons: [String], providers: [String]) {
        var reasons: [String] = []
        let ran = suites.flatMap(\.cases).contains { !$0.steps.isEmpty }
        if !ran { reasons.append("no case ran: every selected case was skipped") }
        guard let target = configuration.target.live else { return (reasons, []) }
        let unchecked = Set(plan.suites.compactMap(\.provider)).sorted().filter { !hasCredentials($0) }
        for id in unchecked {
            guard let provider = providers[id] else { continue }
            guard target.includes(provider) else {
                reasons.append("provider '\(id)' was not checked: target '\(target.name)' does not name it")
                continue
            }
            let variables = provider.credentialFields.filter(\.required).compactMap { target.variable(of: $0, for: provider) }
            reasons.append("provider '\(id)' was not checked: no \(target.name) credentials (set \(variables.joined(separator: ", ")))")
        }
        return (reasons, unchecked)
    }

    /// For the sandbox: the providers some of whose credentials are set while others are missing — a
    /// configuration error naming the missing variables, not a reason to skip.
    package func partialCredentials(for providerIDs: Set<String>) -> [String] {
        guard let target = configuration.target.live else { return [] }
        let live =
            configuration.allowLive
            ? []
            : providerIDs.sorted().compactMap { id -> String? in
                guard let provider = providers[id] else { return nil }
                return provider.liveCredentialWarning(credentials(for: provider)).map { "provider '\(id)': \($0)" }
            }
        return live
            + providerIDs.sorted().compactMap { id in
                guard let provider = providers[id] else { return nil }
                let required = provider.credentialFields.filter(\.required)
                let values = target.credentials(for: provider, environment: configuration.environment)
                let set = required.filter { values[$0.name] != nil }
                guard !set.isEmpty, set.count < required.count else { return nil }
                let missing = required.filter { values[$0.name] == nil }.compactMap { target.variable(of: $0, for: provider) }
                let unset = set.compactMap { target.variable(of: $0, for: provider) }
                return "provider '\(id)' is partly configured for \(target.name == "sandbox" ? "the sandbox" : "target '\(target.name)'"): set "
                    + missing.joined(separator: ", ") + (unset.isEmpty ? "" : " (or unset " + unset.joined(separator: ", ") + " to skip it)")
            }
    }

    /// What a child task of the run's task group ends with.
    private enum GroupTask: Sendable {
        /// A case finished, with its plan item index.
        case caseFinished(Int, CaseResult)
        /// The watchdog: the run deadline passed (or the run ended first).
        case deadlinePassed
        /// The progress ticker stopped at the end of the run.
        case tickerStopped
    }

    /// The steps of a case that stopped early that come after the last one with a result: all of them when the case
    /// stopped before its first step (its variables could not be bound).
    static func notRun(_ all: [Step], after results: [StepResult]) -> [String] {
        guard let first = results.first, let start = all.firstIndex(where: { $0.location == first.location }) else { return all.map(\.summary) }
        return all.dropFirst(start + results.count).map(\.summary)
    }

    /// Runs (or skips) one case.
    func runCase(_ item: RunPlan.Item, suite: Suite, context: CaseContext) async -> CaseResult {
        let testCase = suite.cases[item.caseIndex]
        let startedAt = Date()
        let tags = suite.tags + testCase.tags
        func skipped(_ reason: SkipReason) -> CaseResult {
            configuration.recording?.add(
                RunRecording.Case(
                    file: suite.file, suite: suite.name, provider: suite.provider, name: testCase.name, verdict: .skipped, skipReason: reason,
                    random: [], exchanges: []))
            return CaseResult(name: testCase.name, location: testCase.location, verdict: .skipped, skipReason: reason, tags: tags, startedAt: startedAt)
        }
        if let reason = item.skipReason { return skipped(reason) }
        if context.stop.isSet { return skipped(.failFast) }
        if let deadline = context.deadline, Task.isCancelled || clock.now() >= deadline {
            return CaseResult(
                name: testCase.name, location: testCase.location, verdict: .error, tags: tags,
                steps: [
                    StepResult(
                        name: "run timeout", location: testCase.location,
                        issue: .runTimeout(StepProblem(.beforeCase, "not run: the run timeout was reached before this case started")))
                ],
                startedAt: startedAt)
        }
        var caseRunner = self
        if let id = suite.provider, let transport = context.providerTransports[id] { caseRunner.transport = transport }
        var tape: RandomTape?
        if let replay = configuration.replay {
            let record = replay.cases[Replay.key(file: suite.file, suite: suite.name, name: testCase.name)]
            guard let record, record.verdict != .skipped else {
                return skipped(record?.skipReason ?? .notRecorded(in: replay.directory))
            }
            if replay.answers {
                let noise = suite.provider.flatMap { providers[$0]?.replayNoise } ?? []
                caseRunner.transport = ReplayTransport(record, directory: replay.directory, noise: noise)
            }
            tape = RandomTape(replaying: record.random, fallback: random)
            // Answers from the recording were made at its time; a rerun on the mock (drift) is answered now.
            if replay.answers, let recorded = record.startedAt { caseRunner.nowOffset = recorded.timeIntervalSince(clock.now()) }
        } else if configuration.recording != nil {
            tape = RandomTape(fallback: random)
        }
        if let tape { caseRunner.random = tape.next }
        context.onEvent(.caseStarted(suite: suite, name: testCase.name))
        let controlURL = context.controlURL
        var endpoints = CaseExecutor.Endpoints(controlURL: controlURL, providerURL: nil, credentials: [:])
        if let id = suite.provider, let provider = providers[id] {
            endpoints.credentials = credentials(for: provider)
            switch configuration.target {
            case .mock, .url: endpoints.providerURL = (controlURL ?? "") + (provider.mockBasePaths.first ?? "/" + provider.id)
            case .live(let target):
                endpoints.providerURL = target.baseURL(for: provider)
                endpoints.timeout = target.providers[id]?.timeout ?? target.timeout
            }
        }
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let clockStart = clock.now()
        var executor = CaseExecutor(
            runner: caseRunner, suite: suite, testCase: testCase, endpoints: endpoints, deadline: context.deadline, redactor: context.redactor,
            merchant: context.merchant)
        var (verdict, steps) = await executor.run()
        let notRun = verdict == .passed ? [] : Self.notRun(testCase.steps, after: steps)
        let backendOutput = executor.merchant?.output(ifFailed: verdict, redactor: context.redactor)
        for warning in executor.warnings { context.warnings.add(warning) }
        if item.exclusive, let controlURL, !Task.isCancelled {
            // The case moved the shared mock clock; put it back so later cases see real time.
            let reset = ControlRequest.clock(.object(["reset": .bool(true)])).http(base: controlURL)
            if (try? await transport.send(reset, timeout: configuration.stepTimeout))?.status != 200 {
                steps.append(
                    StepResult(
                        name: "restore the mock clock", location: testCase.location,
                        issue: .couldNotRun(StepProblem(.clockNotRestored, "could not reset the mock clock after this case"))))
                verdict = .error
            }
        }
        var skipReason: SkipReason?
        // A case stopped by the run timeout stays an error, also when it is expected to fail.
        let timedOut = verdict == .error && context.deadline.map { clock.now() >= $0 } == true
        if let xfail = testCase.xfail, !timedOut {
            if verdict == .passed {
                verdict = .failed
                steps.append(
                    StepResult(
                        name: "xfail", location: testCase.location,
                        issue: .mismatches([
                            Mismatch(
                                location: testCase.location, subject: "case", expected: .words("to fail (xfail: \(xfail))"), actual: .words("it passed"),
                                kind: .unexpectedPass)
                        ])))
            } else {
                verdict = .skipped
                skipReason = .xfail(xfail)
            }
        }
        executor.merchant?.gate(&verdict, &steps)
        let keep =
            switch configuration.transcripts {
            case .all: true
            case .failed: verdict == .failed || verdict == .error
            case .none: false
            }
        // The exchanges are as sent until here: redacted only when a report or the recording keeps them.
        if keep || configuration.recording != nil { executor.redactExchanges(of: &steps) }
        if let recording = configuration.recording {
            var record = RunRecording.Case(
                file: suite.file, suite: suite.name, provider: suite.provider, name: testCase.name, verdict: verdict, skipReason: skipReason,
                random: tape?.drawn ?? [], exchanges: steps.flatMap(\.exchanges))
            record.startedAt = clockStart
            recording.add(record)
        }
        if !keep {
            for index in steps.indices { (steps[index].exchanges, steps[index].evidence) = ([], []) }
        }
        var result = CaseResult(
            name: testCase.name, location: testCase.location, verdict: verdict, skipReason: skipReason, tags: tags, steps: steps,
            duration: Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9, startedAt: startedAt)
        result.backendOutput = backendOutput
        result.catches = testCase.catches
        result.notRun = notRun.map(context.redactor.redact)
        return result
    }
}
