import Foundation
package import PayCheckCore
package import PayCheckMock
package import PayCheckProviders
package import PayCheckRunner
import PayCheckSession
import Synchronization

/// Loads suites from text and runs them in-process against an embedded mock host, for tests.
package struct InProcessRun: Sendable {
    /// The providers suites may use.
    package var providers: ProviderRegistry
    /// The provider mocks the embedded host serves.
    package var mocks: [any ProviderMock]
    /// The run configuration (target is forced to the embedded mock unless `controlURL` is given).
    package var configuration: RunConfiguration
    /// The merchant's backend under test, as `--contract` gives it.
    package var contract: MerchantContract?
    /// The severity from which a finding fails its case, as `--fail-on findings[:severity]` gives it.
    package var findingGate: FindingSeverity?

    /// Creates a run with no providers.
    package init(providers: ProviderRegistry = ProviderRegistry([]), mocks: [any ProviderMock] = [], configuration: RunConfiguration = RunConfiguration()) {
        self.providers = providers
        self.mocks = mocks
        self.configuration = configuration
    }

    /// Parses suites given as (file name, YAML) pairs; fails the caller with the diagnostics if any.
    package func load(_ files: [(String, String)]) throws -> [Suite] {
        let texts = Dictionary(files, uniquingKeysWith: { a, _ in a })
        var loader = SuiteLoader(
            catalog: providers,
            readFile: { path in
                if let text = texts[path] ?? texts[URL(fileURLWithPath: path).lastPathComponent] { return text }
                throw InProcessError(message: "no file '\(path)'")
            })
        loader.externalVariables = Set(configuration.variables.keys).union(configuration.secrets.keys)
        let result = loader.load(files: files.map(\.0))
        if result.diagnostics.hasErrors {
            throw InProcessError(message: result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return result.suites
    }

    /// Runs suites against a fresh embedded mock (or `controlURL`), collecting events, through the same
    /// ``RunSession`` as the command line.
    package func run(_ suites: [Suite], clock: any RunnerClock = VirtualClock(), controlURL: String? = nil) async throws -> (RunResult, [RunEvent]) {
        let events = EventLog()
        var configuration = self.configuration
        if controlURL == nil, configuration.target.live == nil { configuration.target = .mock }
        var session = RunSession(providers: providers, mocks: mocks, configuration: configuration)
        session.contract = contract
        session.findingGate = findingGate
        let result = try await session.run(suites, clock: clock, hostname: "test-host", controlURL: controlURL, onEvent: events.append)
        return (result, events.all)
    }
}

/// A failure of the in-process helpers.
package struct InProcessError: Error, CustomStringConvertible {
    /// What went wrong.
    package var message: String
    /// The message.
    package var description: String { message }
}

/// Collects events from concurrent cases.
final class EventLog: Sendable {
    private let events = Mutex<[RunEvent]>([])
    func append(_ event: RunEvent) { events.withLock { $0.append(event) } }
    var all: [RunEvent] { events.withLock { $0 } }
}
