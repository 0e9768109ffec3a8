import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import PayCheckTestSupport
import Testing

/// Inputs that once trapped inside the HTTP stack: each is now a located error, and the process goes on.
@Suite("Crash regressions")
struct CrashRegressionTests {
    @Test("an http: URL with port 65536 is an invalid step (exit 2), not a trap")
    func runnerPortOutOfRange() async throws {
        let run = InProcessRun()
        let suites = try run.load([("port.yaml", "suite: port\ncases:\n  - name: c\n    steps:\n      - http: { url: \"http://127.0.0.1:65536/\" }\n")])
        let (result, _) = try await run.run(suites)
        let step = try #require(result.suites.first?.cases.first?.steps.first)
        #expect(step.verdict == .error && step.invalidStep)
        #expect(step.error == "cannot send to 'http://127.0.0.1:65536/' has port 65536; a port is 1 to 65535")
        #expect(result.exitCode == 2)
    }

    @Test("a notification URL with port 65536 is logged as a failed delivery; the mock keeps serving")
    func mockNotificationPortOutOfRange() async throws {
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn)
        let suites = try run.load([
            (
                "notify.yaml",
                """
                suite: notify
                provider: placetopay
                cases:
                  - name: a notification to an impossible port
                    steps:
                      - mock: site
                        with: { login: port-site, secretKey: port-secret, notificationUrl: "http://127.0.0.1:65536/hook" }
                      - call: createSession
                        auth: { login: port-site, secretKey: port-secret }
                        with: { payment: { reference: P-1, description: d, amount: { currency: COP, total: 1000 } }, returnUrl: "https://m.test/r" }
                        capture: { requestId: body.requestId }
                      - payer: pay
                        with: { requestId: "{{ requestId }}", card: "4110760000000081" }
                        expect: { outcome: succeeded }
                      - mock: notifications
                        with: { requestId: "{{ requestId }}" }
                        expect: { body: { count: 1, "notifications[0].error": { contains: "port 65536" } } }
                      - call: querySession
                        with: { requestId: "{{ requestId }}" }
                        auth: { login: port-site, secretKey: port-secret }
                        expect: { outcome: succeeded }
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        let testCase = try #require(result.suites.first?.cases.first)
        #expect(testCase.verdict == .passed, "\(testCase.steps.last?.mismatches.map(\.message) ?? []) \(testCase.steps.last?.error ?? "")")
    }
}
