import ArgumentParser
import AsyncHTTPClient
import PayCheckCore
import PayCheckMock
import PayCheckSession
import PayCheckRunner

/// `paycheck mock`: serves the provider mocks standalone, for a merchant's own backend.
struct MockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Serve the provider mocks standalone (Ctrl-C to stop).",
        discussion: """
            Point your backend (or `paycheck run --target url=http://HOST:PORT`) at the printed base
            URLs. The control API lives under /__paycheck/ (health, reset, clock, journal, faults).
            """)

    @Option(name: .long, help: "Port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(name: .long, help: "Address to bind.")
    var host: String = "127.0.0.1"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
    }

    func run() async throws {
        let output = Output()
        let bindHost = host
        let port = self.port
        do {
            // Webhooks (e.g. PlacetoPay's notification) go out through a real HTTP client.
            try await HTTPClient.withHTTPClient(configuration: AsyncHTTPTransport.configuration) { client in
                let mock = MockHost(providers: MockRegistry.builtIn, outbound: AsyncOutboundHTTP(client: client))
                try await mock.run(host: bindHost, port: port, handleSignals: true) { bound in
                    let base = "http://\(bindHost):\(bound)"
                    var lines = ["PayCheck mock listening on \(base)", "  control API   \(base)\(ControlAPI.root)/"]
                    for mock in mock.providers {
                        for path in mock.provider.mockBasePaths {
                            lines.append("  \(mock.id.padding(toLength: 13, withPad: " ", startingAt: 0)) \(base)\(path)")
                        }
                    }
                    for merchant in mock.merchants {
                        lines.append("  reference merchant for \(merchant.providerID): \(base)\(merchant.path)")
                    }
                    output.out(lines.joined(separator: "\n"))
                }
            }
        } catch {
            output.err("error: cannot serve on \(bindHost):\(port): \(error)")
            throw ExitCode(3)
        }
    }
}
