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
        let suites = try run.load([("unmapped.yaml", """
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
            """)])
        let (result, _) = try await run.run(suites)
        let testCase = try #require(result.suites.first?.cases.first)
        #expect(testCase.verdict == .failed)
        let mismatch = try #require(testCase.steps.last?.mismatches.first)
        #expect(mismatch.kind == .nonConformance)
        #expect(mismatch.actual.contains("unmapped tinypay state 'refunded'"))
        #expect(mismatch.expected.contains("canceled, failed, open, paid"))
        #expect(result.exitCode == 1)
        let junit = JUnitReporter.render(result)
        #expect(junit.contains("<failure") && !junit.contains("<error"))
    }

    @Test("a step that is wrong as written is an error of the suite: exit 2")
    func invalidStepIsExit2() async throws {
        let suites = try run.load([("invalid.yaml", """
            suite: invalid
            provider: tinypay
            vars: { id: "" }
            cases:
              - name: an empty path parameter
                steps:
                  - call: getPayment
                    with: { id: "{{ id }}" }
            """)])
        let (result, _) = try await run.run(suites)
        let step = try #require(result.suites.first?.cases.first?.steps.first)
        #expect(step.verdict == .error && step.invalidStep)
        #expect(step.error?.contains("needs a non-empty 'with: { id }'") == true)
        #expect(result.exitCode == 2)
    }
}
