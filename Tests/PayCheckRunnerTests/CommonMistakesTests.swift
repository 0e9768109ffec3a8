import Foundation
import PayCheckCore
import PayCheckMock
import Testing

/// The editor schema and lint against the mistakes a newcomer makes (Tests/CommonMistakes).
@Suite("Common mistakes: lint and the generated schema")
struct CommonMistakesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = root.appendingPathComponent("Tests/CommonMistakes")
    static let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".yaml") }.sorted() ?? []

    @Test("there are thirteen common-mistake suites")
    func ten() {
        #expect(Self.files.count == 13, "\(Self.files)")
    }

    @Test("lint flags each mistake with the words its first line names", arguments: files)
    func lintFlags(file: String) throws {
        let path = Self.folder.appendingPathComponent(file).path
        let firstLine = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first)
        let words = try #require(firstLine.components(separatedBy: "lint: ").last)
        let loaded = SuiteLoader(catalog: MockRegistry.providers).load(paths: [path])
        #expect(loaded.diagnostics.hasErrors, "\(file) passes lint")
        let text = loaded.diagnostics.map { "\($0.message) \($0.hint ?? "")" }.joined(separator: "\n")
        #expect(text.contains(words), "\(file): lint said \(text)")
    }

    @Test("a misspelt provider, as the key or as its value, is one error: the steps are checked against the provider meant")
    func providerTypoIsOneError() {
        let steps =
            "cases:\n  - name: c\n    steps:\n      - call: createSession\n        with: { returnUrl: https://x.test }\n      - payer: pay\n        with: { requestId: 1 }\n"
        for head in ["suite: s\nprovidr: placetopay\n", "suite: s\nprovider: placetopy\n"] {
            let found = SuiteLoader(catalog: MockRegistry.providers).parse(text: head + steps, file: "s.yaml").diagnostics.filter { $0.severity == .error }
            #expect(found.count == 1 && found.first?.hint?.hasPrefix("did you mean") == true, "\(found)")
        }
        // Checked against PlacetoPay: an unknown PlacetoPay parameter is still found.
        let typo = "suite: s\nprovidr: placetopay\n" + steps.replacingOccurrences(of: "returnUrl", with: "returnURL")
        #expect(SuiteLoader(catalog: MockRegistry.providers).parse(text: typo, file: "s.yaml").diagnostics.contains { $0.hint == "did you mean 'returnUrl'?" })
    }

    @Test("Suites/paycheck.schema.json is the schema paycheck prints (regenerate with 'paycheck schema')")
    func fileMatchesSource() throws {
        let file = Self.root.appendingPathComponent("Suites/paycheck.schema.json")
        let generated = SuiteSchema.jsonSchema(catalog: MockRegistry.providers)
        #expect(try String(contentsOf: file, encoding: .utf8) == generated)
        let schema = try #require(JSONText.parse(generated))
        // It knows the providers, their operations and actions, and the with: keys of each.
        #expect(schema["definitions"]?["suite"]?["properties"]?["provider"]?["anyOf"]?.arrayValue?.first?["enum"]?.arrayValue?.count == 5)
        let calls = schema["definitions"]?["step"]?["properties"]?["call"]?["anyOf"]?.arrayValue?.first?["enum"]?.arrayValue ?? []
        #expect(calls.contains(.string("createPayment")) && calls.contains(.string("createSession")) && calls.contains(.string("generateLink")))
        let rules = schema["definitions"]?["step"]?["allOf"]?.arrayValue ?? []
        let createPayment = rules.first { $0["if"]?["properties"]?["call"]?["const"] == .string("createPayment") }
        let keys = createPayment?["then"]?["properties"]?["with"]?["anyOf"]?.arrayValue?.first?["propertyNames"]?["enum"]?.arrayValue ?? []
        #expect(keys.contains(.string("redirectUrl")) && keys.contains(.string("subject")) && !keys.contains(.string("amout")))
        // A mapping of matchers names matchers only: the schema's list is the matchers lint knows.
        let matcherNames = schema["definitions"]?["check"]?["anyOf"]?.arrayValue?.last?["anyOf"]?.arrayValue?.first?["propertyNames"]?["enum"]?.arrayValue
        #expect(matcherNames == Matcher.keywords.map(Value.string))
        let fault = rules.first { $0["if"]?["properties"]?["mock"]?["const"] == .string("fault") }
        #expect(fault?["then"]?["properties"]?["with"]?["anyOf"]?.arrayValue?.first?["properties"]?["kind"] != nil)
        // In a suite whose provider is PlacetoPay, a payer: pay step takes PlacetoPay's keys only, not khipu's.
        let placetopay = schema["definitions"]?["step-placetopay"]?["allOf"]?.arrayValue ?? []
        let pay = placetopay.first { $0["if"]?["properties"]?["payer"]?["const"] == .string("pay") }
        let payKeys = pay?["then"]?["properties"]?["with"]?["anyOf"]?.arrayValue?.first?["propertyNames"]?["enum"]?.arrayValue ?? []
        #expect(payKeys.contains(.string("requestId")) && !payKeys.contains(.string("payment_id")), "\(payKeys)")
    }
}
