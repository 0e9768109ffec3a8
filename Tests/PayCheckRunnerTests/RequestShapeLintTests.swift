import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import Testing

/// The providers' declared request shapes in lint and in the run: a typo inside a `with:` value is a located lint error
/// with a did-you-mean, and a rendered value with one is an invalid step.
@Suite("Request shapes of the providers' operations")
struct RequestShapeLintTests {
    static func diagnostics(_ provider: String, _ step: String) -> [Diagnostic] {
        let yaml = "suite: s\nprovider: \(provider)\ncases:\n  - name: c\n    steps:\n\(step)"
        return SuiteLoader(catalog: MockRegistry.providers).parse(text: yaml, file: "s.yaml").diagnostics.filter { $0.severity == .error }
    }

    @Test("a misspelt member three levels down in PlacetoPay's payment is an error at its line and column, with a did-you-mean")
    func deepTypo() {
        let step = """
                  - call: createSession
                    with:
                      returnUrl: https://shop.test/return
                      payment:
                        reference: R1
                        amount:
                          currency: COP
                          total: 1000
                          taxes: [{ kind: valueAddedTax, amout: 190 }]

            """
        let found = Self.diagnostics("placetopay", step)
        #expect(found.count == 1, "\(found)")
        let diagnostic = found.first
        #expect(diagnostic?.message == "'call: createSession': unknown member 'amout' in 'payment.amount.taxes[0]'")
        #expect(diagnostic?.hint == "did you mean 'amount'?")
        #expect(diagnostic?.location?.description == "s.yaml:14:46")
    }

    @Test("a step that expects the provider's refusal may leave out a required member or send another kind; a typo stays an error")
    func negativeSteps() {
        let missing = "      - call: createSession\n        with: { returnUrl: https://shop.test/r, payment: { amount: { currency: COP, total: 1 } } }\n"
        #expect(Self.diagnostics("placetopay", missing).map(\.message) == ["'call: createSession': 'payment' needs 'reference'"])
        #expect(Self.diagnostics("placetopay", missing + "        expect: { status: 400 }\n").isEmpty)
        let number = "      - call: createPayment\n        with: { amount: { currency: EUR, value: 10 }, description: d, redirectUrl: https://shop.test/r }\n"
        #expect(Self.diagnostics("mollie", number + "        expect: { status: 422, error: { code: '422' } }\n").isEmpty)
        #expect(Self.diagnostics("mollie", number).map(\.message) == ["'call: createPayment': 'amount.value' must be text, found '10'"])
        let typo = "      - call: createPayment\n        with: { amount: { currency: EUR, valeu: '10.00' }, description: d, redirectUrl: https://shop.test/r }\n"
        #expect(Self.diagnostics("mollie", typo + "        expect: { status: 422 }\n").map(\.hint) == ["did you mean 'value'?"])
    }

    @Test("a rendered value with a member the provider does not name is an invalid step before anything is sent")
    func runRefusesRenderedTypo() async throws {
        let context = ProviderContext(
            baseURL: "http://mock.test/placetopay", controlURL: nil, credentials: ["login": "l", "tranKey": "k"], now: { .now },
            randomBytes: { Array(repeating: 7, count: $0) },
            send: { _ in
                Issue.record("sent"); throw CancellationError()
            }, addSecret: { _ in })
        let request = ProviderActionRequest(
            kind: .call, name: "createSession",
            parameters: ["returnUrl": "https://shop.test/r", "payment": ["reference": "R", "amount": ["currency": "COP", "totl": 1]]], auth: nil)
        do {
            _ = try await ProviderExecutor(provider: PlacetoPayProvider()).perform(request, context: context)
            Issue.record("no error")
        } catch let error as ProviderError {
            #expect(error.kind == .invalidStep && error.message.contains("unknown member 'totl' in 'payment.amount' (did you mean 'total'?)"), "\(error)")
        }
    }
}
