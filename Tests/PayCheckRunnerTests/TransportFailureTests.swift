import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckRunner
import PayCheckTestSupport
import Testing

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
        #expect(cases[1].verdict == .passed, "\(cases[1].steps.map { ($0.error, $0.mismatches.map(\.message)) })")
        #expect(result.exitCode == 3)
    }
}
