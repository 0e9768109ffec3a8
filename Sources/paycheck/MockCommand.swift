import ArgumentParser
import AsyncHTTPClient
import PayCheckCore
import PayCheckMock
import PayCheckSession
import PayCheckRunner
import Foundation
import NIOSSL
import PayCheckProviders

/// `paycheck mock`: serves the provider mocks standalone, for a merchant's own backend.
struct MockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Serve the provider mocks standalone (Ctrl-C to stop).",
        discussion: HelpText.reflow(
            """
            Point your backend (or `paycheck run --target url=http://HOST:PORT`) at the printed base URLs. The control API lives under /__paycheck/ (health, reset, clock, journal, faults, webhooks); GET /__paycheck/limits shows the limits below with what was evicted.

            Safe by default: the mock listens on loopback; its control API answers only requests for this host (no DNS rebinding) with `Content-Type: application/json` (no cross-origin form posts), and notifications go only to loopback (--allow-notify-host names more). To listen on another address, pass --allow-remote: the control API then also needs the token printed at start (`paycheck run --control-token TOKEN`, or PAYCHECK_CONTROL_TOKEN).
            """))

    @Option(name: .long, help: "Port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(name: .long, help: "Address to bind (loopback unless --allow-remote).")
    var host: String = "127.0.0.1"

    @Flag(name: .long, help: "Allow --host to name a non-loopback address (the control API then needs a token).")
    var allowRemote = false

    @Option(name: .long, help: "A Host name the control API accepts besides loopback and the bound address (repeatable).")
    var allowHost: [String] = []

    @Option(name: .long, help: "A host notifications and webhooks may be sent to besides loopback (repeatable).")
    var allowNotifyHost: [String] = []

    @Option(name: .long, help: ArgumentHelp("Serve HTTPS with this PEM certificate (chain); needs --tls-key.", valueName: "file"))
    var tlsCertificate: String?

    @Option(name: .long, help: ArgumentHelp("The PEM private key of --tls-certificate.", valueName: "file"))
    var tlsKey: String?

    @Option(name: .long, help: ArgumentHelp("Require a client certificate signed by this PEM CA (with --tls-certificate).", valueName: "file"))
    var tlsClientCa: String?

    @OptionGroup(title: "Limits")
    var limits: MockLimitOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-certificate and --tls-key go together") }
        if tlsClientCa != nil, tlsCertificate == nil { throw ValidationError("--tls-client-ca needs --tls-certificate and --tls-key") }
        guard NetworkPolicy.isLoopback(host) || allowRemote else {
            throw ValidationError(
                "--host \(host) would expose the mock (and its control API, which can reset it, move its clock and read "
                    + "its journal) beyond this machine; pass --allow-remote as well if you mean it")
        }
    }

    func run() async throws {
        let output = Output()
        let bindHost = host
        let port = self.port
        let remote = !NetworkPolicy.isLoopback(host)
        let token = remote ? Self.newToken() : nil
        let policy = NetworkPolicy(controlToken: token, allowedHostNames: allowHost, notifyHosts: allowNotifyHost)
        let limits = self.limits.limits
        let tls: TLSConfiguration?
        do {
            tls = try tlsCertificate.flatMap { certificate in
                try tlsKey.map { try MockTLS.configuration(certificate: certificate, key: $0, clientCA: tlsClientCa) }
            }
        } catch {
            output.err("error: \(error)")
            throw ExitCode(2)
        }
        do {
            // Webhooks (e.g. PlacetoPay's notification) go out through a real HTTP client.
            try await HTTPClient.withHTTPClient(configuration: AsyncHTTPTransport.configuration) { client in
                let mock = MockHost(
                    providers: MockRegistry.builtIn, outbound: AsyncOutboundHTTP(client: client), policy: policy,
                    limits: limits)
                try await mock.run(host: bindHost, port: port, handleSignals: true, tls: tls) { bound in
                    let base = "\(tls == nil ? "http" : "https")://\(bindHost):\(bound)"
                    var lines = ["PayCheck mock listening on \(base)", "  control API   \(base)\(ControlAPI.root)/"]
                    for mock in mock.providers {
                        for path in mock.provider.mockBasePaths {
                            lines.append("  \(mock.id.padding(toLength: 13, withPad: " ", startingAt: 0)) \(base)\(path)")
                        }
                        // The mock's own test account (public test values, not secrets): what a backend configures.
                        let credentials = mock.provider.mockCredentials.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                        if !credentials.isEmpty { lines.append("                test credentials: " + credentials.joined(separator: " ")) }
                    }
                    for merchant in mock.merchants {
                        lines.append("  reference merchant for \(merchant.providerID): \(base)\(merchant.path)")
                    }
                    if let token {
                        lines.append(
                            "warning: listening on \(bindHost), beyond loopback: anyone who can reach this port can use the "
                                + "provider mocks; the control API needs the header \(ControlAPI.controlTokenHeader): \(token) "
                                + "(paycheck run --control-token \(token))")
                    }
                    output.out(lines.joined(separator: "\n"))
                }
            }
        } catch {
            let busy = "\(error)".contains("Address already in use")
            let hint = busy ? "\n  hint: another process listens on port \(port); choose another with --port, or --port 0 for a free one" : ""
            output.err("error: cannot serve on \(bindHost):\(port): \(busy ? "the port is in use" : "\(error)")\(hint)")
            throw ExitCode(3)
        }
    }

    /// A fresh control token: 128 random bits in hex.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }
}

extension String {
    /// The string left-padded with zeros to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - self.count)) + self
    }
}

/// `paycheck mock`'s limit options, each defaulting to ``MockLimits``.
struct MockLimitOptions: ParsableArguments {
    private static let defaults = MockLimits()

    @Option(name: .long, help: "Requests the journal keeps (the oldest are evicted).")
    var journalEntries = defaults.journalEntries
    @Option(name: .long, help: "Bytes of requests the journal keeps.")
    var journalBytes = defaults.journalBytes
    @Option(name: .long, help: "Values the /__paycheck/kv store keeps.")
    var kvEntries = defaults.keyValueEntries
    @Option(name: .long, help: "Bytes of JSON the /__paycheck/kv store keeps.")
    var kvBytes = defaults.keyValueBytes
    @Option(name: .long, help: "Sessions or payments each provider mock keeps (the oldest are evicted).")
    var providerResources = defaults.providerResources
    @Option(name: .long, help: "Webhook attempts the webhook log keeps.")
    var webhookLogEntries = defaults.webhookLogEntries
    @Option(name: .long, help: "The largest request body accepted (413 in the provider's error shape above it).")
    var maxBodyBytes = defaults.requestBodyBytes
    @Option(name: .long, help: "Seconds before an idle or slow-header connection is closed.")
    var idleTimeout = defaults.idleTimeoutSeconds
    @Option(name: .long, help: "Seconds a request body may take to arrive (408 after).")
    var bodyTimeout = defaults.bodyReadTimeoutSeconds
    @Option(name: .long, help: "Seconds Ctrl-C/SIGTERM waits for requests in flight before closing them.")
    var shutdownGrace = defaults.shutdownGraceSeconds

    func validate() throws {
        let values = [
            ("--journal-entries", journalEntries), ("--journal-bytes", journalBytes), ("--kv-entries", kvEntries),
            ("--kv-bytes", kvBytes), ("--webhook-log-entries", webhookLogEntries), ("--max-body-bytes", maxBodyBytes),
            ("--idle-timeout", idleTimeout), ("--body-timeout", bodyTimeout), ("--provider-resources", providerResources),
        ]
        for (flag, value) in values where value < 1 { throw ValidationError("\(flag) must be at least 1, got \(value)") }
        if shutdownGrace < 0 { throw ValidationError("--shutdown-grace must not be negative, got \(shutdownGrace)") }
    }

    /// The limits these options give.
    var limits: MockLimits {
        var limits = MockLimits()
        limits.journalEntries = journalEntries
        limits.journalBytes = journalBytes
        limits.keyValueEntries = kvEntries
        limits.keyValueBytes = kvBytes
        limits.webhookLogEntries = webhookLogEntries
        limits.providerResources = providerResources
        limits.requestBodyBytes = maxBodyBytes
        limits.idleTimeoutSeconds = idleTimeout
        limits.bodyReadTimeoutSeconds = bodyTimeout
        limits.shutdownGraceSeconds = shutdownGrace
        return limits
    }
}
