import PayCheckCore
import PayCheckMock
import Testing

/// A parameter whose kind the adapter declares (MIT's beans are mappings) is checked by lint: run would refuse it as an
/// invalid step, so lint does first, at its place.
@Suite("Declared parameter kinds")
struct DeclaredKindsTests {
    static func diagnostics(_ with: String) -> [Diagnostic] {
        let yaml = "suite: s\nprovider: mit\ncases:\n  - name: c\n    steps:\n      - call: authenticate\n        with: \(with)\n"
        return SuiteLoader(catalog: MockRegistry.providers).parse(text: yaml, file: "mit.yaml").diagnostics
    }

    @Test("MIT's tokenization bean given as a number is a located lint error; a mapping, null or a template passes")
    func mitBeans() {
        let refused = Self.diagnostics("{ tokenization: 5, card: '4111111111111111' }")
        #expect(
            refused.contains {
                $0.message == "'tokenization' of 'call: authenticate' must be a mapping, found '5'" && $0.location?.line == 7
                    && $0.location?.column == 31
            }, "\(refused)")
        #expect(Self.diagnostics("{ threeDS: [1], card: x }").contains { $0.message.contains("'threeDS' of 'call: authenticate' must be a mapping") })
        for fine in ["{ tokenization: { reference: R }, card: x }", "{ tokenization: ~, card: x }", "{ tokenization: '{{ bean }}', card: x }"] {
            #expect(!Self.diagnostics(fine).contains { $0.message.contains("must be a mapping") }, "\(fine)")
        }
    }
}
