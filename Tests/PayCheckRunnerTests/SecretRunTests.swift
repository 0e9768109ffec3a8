import Foundation
import PayCheckCore
import PayCheckRunner
import PayCheckTestSupport
import Testing

@Suite("Secrets during a run")
struct SecretRunTests {
    @Test("a secret: true capture is redacted also in the exchange it was captured from, and in earlier ones")
    func captureInItsOwnExchange() async throws {
        var configuration = RunConfiguration()
        configuration.transcripts = .all
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "capture.yaml",
                """
                suite: capture
                cases:
                  - name: token handed out once
                    steps:
                      - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/first", json: { token: "tok/CAPTURED-7d1a" } }
                      - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/issue", json: { token: "tok/CAPTURED-7d1a" } }
                        capture: { token: { from: body.json.token, secret: true } }
                      - http: { url: "{{ mock.url }}/__paycheck/echo/use?t={{ token }}" }
                        expect: { status: 200 }
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        let testCase = result.suites[0].cases[0]
        #expect(testCase.verdict == .passed)
        #expect(testCase.steps.allSatisfy { !$0.exchanges.isEmpty })
        let text = allText(result)
        #expect(!text.contains("CAPTURED-7d1a"), "\(text)")
        #expect(!text.contains("CAPTURED%2D7d1a") && !text.contains("tok%2FCAPTURED"))
        #expect(text.contains(Redactor.mask))
    }

    @Test("secrets too short to redact are reported: --secret values, credentials and captures")
    func shortSecretWarnings() async throws {
        var configuration = RunConfiguration()
        configuration.secrets = ["pin": "123", "apiKey": "long-enough-secret"]
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "short.yaml",
                """
                suite: short
                cases:
                  - name: short capture
                    steps:
                      - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/x", json: { code: "ab" } }
                        capture: { code: { from: body.json.code, secret: true } }
                """
            )
        ])
        let (result, events) = try await run.run(suites)
        #expect(result.warnings.count == 2, "\(result.warnings)")
        #expect(result.warnings.contains { $0.hasPrefix("secret 'pin' is shorter than 4 characters") })
        #expect(result.warnings.contains { $0.contains("case 'short capture': the secret capture 'code' is shorter than 4 characters") })
        let warned = events.compactMap { event -> String? in if case .warning(let text) = event { text } else { nil } }
        #expect(warned == result.warnings)
        #expect(!result.warnings.joined().contains("123"), "a warning never shows the value")
    }
}
