import AsyncHTTPClient
import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import PayCheckTestSupport
import Testing
import NIOPosix

/// A step whose exchange never completed is one error with its cause, never a list of failed expectations — unless
/// it expects the S-class error a transport failure is.
@Suite("Transport failures: one error, not a cascade of conformance failures")
struct TransportFailureTests {
    /// A PlacetoPay suite whose steps expect an authentication error, run against a port nobody listens on.
    static let suite = """
        suite: refused
        provider: placetopay
        cases:
          - name: expects an A-class error
            steps:
              - call: createSession
                auth: { secretKey: not-the-secret }
                with: { payment: { reference: R, description: d, amount: { currency: COP, total: 1000 } }, returnUrl: "https://shop.example/r" }
                expect: { status: 401, error: { class: A, code: 102 } }
          - name: expects the service to be down
            steps:
              - call: createSession
                with: { payment: { reference: R, description: d, amount: { currency: COP, total: 1000 } }, returnUrl: "https://shop.example/r" }
                expect: { error: { class: S, code: connection } }
        """

    @Test("against an unreachable host, a step expecting an A-class error is an error naming the cause; one expecting class S passes")
    func unreachable() async throws {
        var configuration = RunConfiguration()
        configuration.stepTimeout = 5
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
        let suites = try run.load([("refused.yaml", Self.suite)])
        let (result, _) = try await run.run(suites, clock: SystemRunnerClock(), controlURL: "http://127.0.0.1:1")
        let cases = result.suites[0].cases
        #expect(cases[0].verdict == .error, "\(cases[0].steps.map(\.mismatches))")
        #expect(cases[0].failingStep?.mismatches.isEmpty == true)
        #expect(cases[0].failingStep?.error?.isEmpty == false)
        // The cause is typed where the transport saw it, not read back from the message.
        guard case .transport(let error)? = cases[0].failingStep?.issue else {
            Issue.record("not a transport issue: \(String(describing: cases[0].failingStep?.issue))"); return
        }
        #expect(error.cause == .connect)
        #expect(cases[1].verdict == .passed, "\(cases[1].steps.map { ($0.error, $0.mismatches.map(\.message)) })")
        #expect(result.exitCode == 3)
    }

    @Test("the transport names its failure's cause by the error's type: refused, timed out")
    func causes() async throws {
        let client = HTTPClient(eventLoopGroup: .singletonMultiThreadedEventLoopGroup, configuration: AsyncHTTPTransport.configuration)
        do {
            let transport = AsyncHTTPTransport(client: client)
            func cause(_ url: String, timeout: Double) async -> TransportError.Cause? {
                do {
                    _ = try await transport.send(HTTPRequestData(method: "GET", url: url, headers: [], body: []), timeout: timeout)
                    return nil
                } catch let error as TransportError {
                    return error.cause
                } catch {
                    return nil
                }
            }
            #expect(await cause("http://127.0.0.1:1/x", timeout: 5) == .connect)
            // A listener that accepts and never answers: the deadline is what ends the exchange.
            let silent = try SilentListener()
            defer { silent.close() }
            #expect(await cause("http://127.0.0.1:\(silent.port)/x", timeout: 0.2) == .timeout)
        }
        try await client.shutdown()
    }
}

/// A TCP listener on 127.0.0.1 that never accepts: the kernel completes connections, nobody ever answers.
private struct SilentListener {
    let fd: Int32
    let port: Int

    init() throws {
        struct Failed: Error {}
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            Glibc.close(fd)
            throw Failed()
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(fd) }
}
