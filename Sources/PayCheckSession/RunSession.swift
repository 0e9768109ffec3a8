import AsyncHTTPClient
import Foundation
package import PayCheckCore
package import PayCheckMock
package import PayCheckProviders
package import PayCheckRunner

/// One run from loaded suites to a `RunResult`: the HTTP client's lifetime, the plan, the embedded mock host for
/// the `mock` target, and the runner. The command line and the tests both run through it, so they cannot drift.
package struct RunSession: Sendable {
    /// The providers suites may use.
    package var providers: ProviderRegistry
    /// The provider mocks an embedded host serves.
    package var mocks: [any ProviderMock]
    /// The run's configuration.
    package var configuration: RunConfiguration
    /// The merchant's backend under test (`--contract`): `merchant:` steps reach it, and the run starts it when the
    /// contract says how.
    package var contract: MerchantContract?
    /// The severity from which a finding on the merchant's backend fails its case (`--fail-on findings[:severity]`);
    /// `nil`: findings are reported and fail nothing.
    package var findingGate: FindingSeverity?

    /// Creates a session.
    package init(providers: ProviderRegistry, mocks: [any ProviderMock], configuration: RunConfiguration) {
        self.providers = providers
        self.mocks = mocks
        self.configuration = configuration
    }

    /// A session over the built-in providers and their mocks (``MockRegistry``).
    package static func builtIn(configuration: RunConfiguration) -> RunSession {
        let mocks = MockRegistry.builtIn
        return RunSession(providers: ProviderRegistry(mocks.map(\.provider)), mocks: mocks, configuration: configuration)
    }

    /// Runs `suites`. `controlURL` overrides the target's mock host (a standalone mock a test started).
    /// - Throws: ``RunSessionError`` when no case is selected, or the embedded mock could not start.
    package func run(
        _ suites: [Suite], clock: any RunnerClock = SystemRunnerClock(), hostname: String = ProcessInfo.processInfo.hostName,
        controlURL: String? = nil, onEvent: @escaping @Sendable (RunEvent) -> Void = { _ in }
    ) async throws -> RunResult {
        let wallStart = DispatchTime.now().uptimeNanoseconds
        var result = try await runInClient(suites, clock: clock, hostname: hostname, controlURL: controlURL, onEvent: onEvent)
        // The run's real wall time: also the embedded mock's shutdown and the client's.
        result.duration = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        return result
    }

    /// ``run(_:clock:hostname:controlURL:onEvent:)`` inside the HTTP clients' lifetime: the run's, and one per TLS
    /// setting a provider has of its own.
    private func runInClient(
        _ suites: [Suite], clock: any RunnerClock, hostname: String, controlURL: String?, onEvent: @escaping @Sendable (RunEvent) -> Void
    ) async throws -> RunResult {
        let configuration = self.configuration
        let clientConfiguration: HTTPClient.Configuration
        do {
            clientConfiguration = try AsyncHTTPTransport.configuration(tls: configuration.target.live?.tls ?? .init())
        } catch {
            throw RunSessionError.configuration(["target '\(configuration.target)': \(error)"])
        }
        // A provider with its own TLS on a live target gets a client of its own, shut down with the run.
        let endpoints = configuration.target.live?.providers ?? [:]
        var ownConfigurations: [LiveTarget.TLSOptions: HTTPClient.Configuration] = [:]
        for (id, endpoint) in endpoints {
            guard let tls = endpoint.tls, ownConfigurations[tls] == nil else { continue }
            do {
                ownConfigurations[tls] = try AsyncHTTPTransport.configuration(tls: tls)
            } catch {
                throw RunSessionError.configuration(["target '\(configuration.target)', provider '\(id)': \(error)"])
            }
        }
        let ownClients = ownConfigurations.mapValues { HTTPClient(eventLoopGroupProvider: .singleton, configuration: $0) }
        let providerBases = endpoints.compactMapValues { endpoint -> (any HTTPTransport)? in
            endpoint.tls.flatMap { ownClients[$0] }.map { AsyncHTTPTransport(client: $0) }
        }
        let result: Result<RunResult, any Error>
        do {
            result = .success(
                try await runInClient(
                    suites, clock: clock, hostname: hostname, controlURL: controlURL, configuration: clientConfiguration, providerBases: providerBases,
                    onEvent: onEvent))
        } catch {
            result = .failure(error)
        }
        for client in ownClients.values { try? await client.shutdown() }
        return try result.get()
    }

    /// The run inside the run's HTTP client, each provider with its own TLS on its own client (`providerBases`).
    private func runInClient(
        _ suites: [Suite], clock: any RunnerClock, hostname: String, controlURL: String?, configuration clientConfiguration: HTTPClient.Configuration,
        providerBases: [String: any HTTPTransport], onEvent: @escaping @Sendable (RunEvent) -> Void
    ) async throws -> RunResult {
        let configuration = self.configuration
        let providers = self.providers
        let mocks = self.mocks
        return try await HTTPClient.withHTTPClient(configuration: clientConfiguration) { client in
            var built = Runner(
                configuration: configuration, providers: providers, transport: AsyncHTTPTransport(client: client), clock: clock,
                hostname: hostname)
            built.providerBases = providerBases
            let runner = built
            let plan = RunPlan(suites: suites, configuration: configuration, hasProviderCredentials: runner.hasCredentials)
            // Nothing selected (a --tag that matches nothing, a shard with no case): a valid, empty result of this run
            // — its id, shard and selection digest, so `paycheck merge` takes it — that checked nothing (exit 4, or 0
            // with --allow-empty).
            guard !plan.items.isEmpty else { return Self.nothingSelected(plan, configuration: configuration, hostname: hostname) }
            let partial = runner.partialCredentials(for: Set(plan.suites.compactMap(\.provider)))
            guard partial.isEmpty else { throw RunSessionError.configuration(partial) }
            let contract = self.contract
            let run: @Sendable (String) async throws -> RunResult = { base in
                guard let contract else { return await runner.run(plan, controlURL: base, onEvent: onEvent) }
                return try await self.runMerchant(plan, contract: contract, runner: runner, controlURL: base, onEvent: onEvent)
            }
            if let controlURL { return try await run(controlURL) }
            switch configuration.target {
            case .mock:
                // The mock's time follows the runner's clock, so signed seeds and session expiry agree.
                let host = MockHost(providers: mocks, clock: MockClock(base: { clock.now() }), outbound: AsyncOutboundHTTP(client: client))
                return try await withRunningMock(host) { base in try await run(base) }
            case .url(let base):
                return try await run(base)
            case .live:
                if contract != nil { throw RunSessionError.backend("--contract needs the mock (--target mock or url=…): the mock plays the provider for the backend") }
                return await runner.run(plan, controlURL: nil, onEvent: onEvent)
            }
        }
    }
}

extension RunSession {
    /// Runs `suites` through the live code path (no control API, the providers' own signing) against an embedded
    /// mock: every provider's base URL is the mock's. `paycheck drift` compares such a run with a recording.
    /// `faults` are injected into the mock first (``FaultSpec``), e.g. a `field` fault that changes one answer.
    func runLiveOnEmbeddedMock(
        _ suites: [Suite], clock: any RunnerClock = SystemRunnerClock(), faults: [[String: Value]] = []
    ) async throws -> RunResult {
        let host = MockHost(providers: mocks, clock: MockClock(base: { clock.now() }))
        for fault in faults { try host.inject(fault: fault) }
        let providers = self.providers
        let session = self
        return try await withRunningMock(host) { base in
            var target = LiveTarget.mock(at: base, providers: providers.all)
            target.retry.attempts = 1
            var live = session
            live.configuration.target = .live(target)
            return try await live.run(suites, clock: clock)
        }
    }

    /// The cases of a recording (`recorded`, read from `directory`) run again on an embedded mock through the live
    /// path, each with the random numbers it drew, recorded the same way: what `paycheck drift` compares.
    package static func rerunOnMock(
        _ suites: [Suite], recorded: [RunRecording.Case], directory: String, faults: [[String: Value]] = []
    ) async throws -> [RunRecording.Case] {
        var configuration = RunConfiguration()
        configuration.replay = Replay(directory: directory, cases: recorded, answers: false)
        configuration.recording = RunRecording()
        configuration.progressInterval = nil
        _ = try await RunSession.builtIn(configuration: configuration).runLiveOnEmbeddedMock(suites, faults: faults)
        return configuration.recording?.all ?? []
    }

    /// The result of a run whose selection has no case.
    static func nothingSelected(_ plan: RunPlan, configuration: RunConfiguration, hostname: String) -> RunResult {
        var result = RunResult(
            suites: [], target: configuration.target.description, targetKind: configuration.target.kind, version: payCheckVersion,
            hostname: hostname, startedAt: Date(), duration: 0)
        result.notChecked = [RunResult.nothingSelected]
        result.allowEmpty = configuration.allowEmpty
        result.runId = configuration.runId
        result.shard = configuration.shard
        result.suiteDigest = plan.selectionDigest
        return result
    }
}

/// Why a session did not run.
package enum RunSessionError: Error, Sendable, CustomStringConvertible {
    /// The configuration is inconsistent, e.g. a provider's sandbox credentials are only partly set.
    case configuration([String])
    /// The merchant's backend could not be set up, started or reached.
    case backend(String)

    /// The message.
    package var description: String {
        switch self {
        case .configuration(let problems): problems.joined(separator: "\nerror: ")
        case .backend(let message): message
        }
    }
}
