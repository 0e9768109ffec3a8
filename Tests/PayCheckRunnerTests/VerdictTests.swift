import Foundation
import PayCheckCore
import PayCheckProviders
import PayCheckReports
import PayCheckRunner
import PayCheckTestSupport
import Testing

/// Verdicts mean what they say (DESIGN.md §3, §6): a provider answer outside its documented contract is a
/// conformance failure (exit 1), a step that is wrong as written is the suite's problem (exit 2).
@Suite("Verdicts of provider problems")
struct VerdictTests {
    let run = InProcessRun(providers: ProviderRegistry([TinyPayProvider()]), mocks: [TinyPayMock()])

    @Test("an unmapped native state is a JUnit <failure> and exit 1, not an error")
    func unmappedStateFails() async throws {
        let suites = try run.load([
            (
                "unmapped.yaml",
                """
                suite: unmapped
                provider: tinypay
                cases:
                  - name: a state the mapping does not know
                    steps:
                      - call: createPayment
                        with: { amount: 5, currency: EUR }
                        capture: { id: body.id }
                      - mock: force
                        with: { id: "{{ id }}", status: refunded }
                      - call: getPayment
                        with: { id: "{{ id }}" }
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        let testCase = try #require(result.suites.first?.cases.first)
        #expect(testCase.verdict == .failed)
        let mismatch = try #require(testCase.steps.last?.mismatches.first)
        #expect(mismatch.kind == .nonConformance)
        #expect(mismatch.actual.text.contains("unmapped tinypay state 'refunded'"))
        #expect(mismatch.expected.text.contains("canceled, failed, open, paid"))
        #expect(result.exitCode == 1)
        let junit = JUnitReporter.render(result)
        #expect(junit.contains("<failure") && !junit.contains("<error"))
    }

    @Test("a step that is wrong as written is an error of the suite: exit 2")
    func invalidStepIsExit2() async throws {
        let suites = try run.load([
            (
                "invalid.yaml",
                """
                suite: invalid
                provider: tinypay
                vars: { id: "" }
                cases:
                  - name: an empty path parameter
                    steps:
                      - call: getPayment
                        with: { id: "{{ id }}" }
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        let step = try #require(result.suites.first?.cases.first?.steps.first)
        #expect(step.verdict == .error && step.invalidStep)
        #expect(step.error?.contains("needs a non-empty 'with: { id }'") == true)
        #expect(result.exitCode == 2)
    }

    @Test("a run that checked some providers exits by their cases and names the others; --require-all-providers makes it 4; nothing run is 4")
    func providersNotChecked() {
        let passed = CaseResult(
            name: "ran", location: SourceLocation(file: "a.yaml", line: 3, column: 5), verdict: .passed,
            steps: [StepResult(name: "call createSession", location: SourceLocation(file: "a.yaml", line: 5, column: 9))], startedAt: Date())
        let skipped = CaseResult(
            name: "no credentials", location: SourceLocation(file: "b.yaml", line: 3, column: 5), verdict: .skipped,
            skipReason: SkipReason(.noCredentials, "no sandbox credentials for 'mollie'"), startedAt: Date())
        var result = RunResult(
            suites: [
                SuiteResult(file: "a.yaml", name: "a", provider: "placetopay", cases: [passed], startedAt: Date()),
                SuiteResult(file: "b.yaml", name: "b", provider: "mollie", cases: [skipped], startedAt: Date()),
            ],
            target: "sandbox", targetKind: "sandbox", version: "test", hostname: "h", startedAt: Date(), duration: 1)
        result.notChecked = ["provider 'mollie' was not checked: no sandbox credentials (set PAYCHECK_MOLLIE_API_KEY)"]
        result.providersNotChecked = ["mollie"]
        #expect(result.exitCode == 0 && result.verdictWord.contains("not checked: mollie"))
        let console = ConsoleReporter(write: { _ in }).summary(result)
        #expect(console.contains("1 case checked, not checked (no credentials): mollie"), "\(console)")
        result.requireAllProviders = true
        #expect(result.exitCode == 4 && result.verdictWord == "not every provider checked: mollie")
        var nothing = result
        nothing.requireAllProviders = false
        nothing.suites = [SuiteResult(file: "b.yaml", name: "b", provider: "mollie", cases: [skipped], startedAt: Date())]
        nothing.notChecked.insert("no case ran: every selected case was skipped", at: 0)
        #expect(nothing.exitCode == 4 && nothing.verdictWord == "nothing checked")
    }
}
