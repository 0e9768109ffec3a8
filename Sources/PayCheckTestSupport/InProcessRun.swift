import AsyncHTTPClient
import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import Synchronization

/// Loads suites from text and runs them in-process against an embedded mock host, for tests.
public struct InProcessRun: Sendable {
    /// The providers suites may use.
    public var providers: ProviderRegistry
    /// The provider mocks the embedded host serves.
    public var mocks: [any ProviderMock]
    /// The run configuration (target is forced to the embedded mock unless `controlURL` is given).
    public var configuration: RunConfiguration

    /// Creates a run with no providers.
    public init(providers: ProviderRegistry = ProviderRegistry([]), mocks: [any ProviderMock] = [], configuration: RunConfiguration = RunConfiguration()) {
        self.providers = providers
        self.mocks = mocks
        self.configuration = configuration
    }

    /// Parses suites given as (file name, YAML) pairs; fails the caller with the diagnostics if any.
    public func load(_ files: [(String, String)]) throws -> [Suite] {
        let texts = Dictionary(files, uniquingKeysWith: { a, _ in a })
        let loader = SuiteLoader(catalog: providers, readFile: { path in
            if let text = texts[path] ?? texts[URL(fileURLWithPath: path).lastPathComponent] { return text }
            throw InProcessError(message: "no file '\(path)'")
        })
        let result = loader.load(files: files.map(\.0))
        if result.diagnostics.hasErrors {
            throw InProcessError(message: result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return result.suites
    }

    /// Runs suites against a fresh embedded mock (or `controlURL`), collecting events.
    public func run(_ suites: [Suite], clock: any RunnerClock = VirtualClock(), controlURL: String? = nil) async throws -> (RunResult, [RunEvent]) {
        let events = EventLog()
        let configuration = self.configuration
        let providers = self.providers
        let mocks = self.mocks
        let result = try await HTTPClient.withHTTPClient(configuration: AsyncHTTPTransport.configuration) { client in
            let runner = Runner(configuration: configuration, providers: providers, transport: AsyncHTTPTransport(client: client), clock: clock, hostname: "test-host")
            let plan = RunPlan(suites: suites, configuration: configuration, hasProviderCredentials: runner.hasCredentials)
            if let controlURL {
                return await runner.run(plan, controlURL: controlURL, onEvent: events.append)
            }
            // The mock's time follows the runner's clock, so signed seeds and session expiry agree in tests.
            let host = MockHost(providers: mocks, clock: MockClock(base: { clock.now() }), outbound: AsyncOutboundHTTP(client: client))
            return try await withRunningMock(host) { base in
                await runner.run(plan, controlURL: base, onEvent: events.append)
            }
        }
        return (result, events.all)
    }
}

/// A failure of the in-process helpers.
public struct InProcessError: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// Collects events from concurrent cases.
final class EventLog: Sendable {
    private let events = Mutex<[RunEvent]>([])
    func append(_ event: RunEvent) { events.withLock { $0.append(event) } }
    var all: [RunEvent] { events.withLock { $0 } }
}
