import AsyncHTTPClient
import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import PayCheckTestSupport
import Testing

/// One registry entry under test: a mock with its adapter, and the folder of its conformance suites.
struct RegistryEntry: CustomTestStringConvertible, Sendable {
    let mock: any ProviderMock
    let suites: String
    var testDescription: String { mock.id }

    /// The package root of this checkout.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every built-in provider (its suites in `Suites/<id>`), and the test-only TinyPay, which joins the platform
    /// with its three folders (adapter, mock, suites) and this one line, touching no shared code.
    static let all: [RegistryEntry] =
        MockRegistry.builtIn.map { RegistryEntry(mock: $0, suites: root.appendingPathComponent("Suites/\($0.id)").path) }
        + [RegistryEntry(mock: TinyPayMock(), suites: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("TinyPay/Suites").path)]
}

/// What every registered provider must satisfy (DESIGN.md §1, §3, §5).
@Suite("Provider registry conformance")
struct ProviderConformanceTests {
    @Test("the outcome mapping has a row for every native state the mock reports", arguments: RegistryEntry.all)
    func mappingCoversStates(_ entry: RegistryEntry) {
        let mapping = entry.mock.provider.outcomeMapping
        #expect(!entry.mock.nativeStates.isEmpty)
        for state in entry.mock.nativeStates {
            #expect(mapping.rules.contains { $0.state == state }, "\(entry.mock.id): native state '\(state)' is unmapped")
        }
        for rule in mapping.rules { #expect(!rule.note.isEmpty, "\(entry.mock.id): row \(rule.key) has no note") }
    }

    @Test("the error catalog has unique codes, each with a class, a message and a source", arguments: RegistryEntry.all)
    func catalog(_ entry: RegistryEntry) {
        let entries = entry.mock.provider.errorCatalog.entries
        #expect(!entries.isEmpty)
        let keys = entries.map { "\($0.code)@\($0.httpStatus.map(String.init) ?? "-")" }
        #expect(Set(keys).count == keys.count, "\(entry.mock.id): duplicate catalog rows")
        for row in entries {
            #expect(ErrorClass.allCases.contains(row.errorClass) && !row.message.isEmpty && !row.source.isEmpty, "\(row.code)")
        }
    }

    /// A YAML value of `shape` with every member it names.
    static func sample(_ shape: RequestShape) -> String {
        switch shape {
        case .object(let members): "{ " + members.map { "\"\($0.name)\": \(sample($0.shape))" }.joined(separator: ", ") + " }"
        case .list(let element): "[\(sample(element))]"
        case .oneOf(let choices): "\"\(choices.first ?? "")\""
        case .number: "1"
        case .boolean: "true"
        case .openObject: "{}"
        case .text, .any: "x"
        }
    }

    @Test("every declared operation and action lints with all its keys, and a misspelt key does not", arguments: RegistryEntry.all)
    func declarationsLint(_ entry: RegistryEntry) {
        let provider = entry.mock.provider
        var steps: [String] = []
        var misspelt: [String] = []
        for (kind, specs) in provider.description.specs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for spec in specs {
                // Keys are quoted: a query parameter such as Mollie's `amount[value]` is a legitimate key.
                // A value of the declared kind, where the provider declares one.
                let sample: [ValueKind: String] = [.object: "{}", .array: "[]", .number: "1", .boolean: "true", .string: "x"]
                let with = (spec.parameters ?? []).map { "\"\($0)\": \(spec.shapes[$0].map(Self.sample) ?? spec.kinds[$0].flatMap { sample[$0] } ?? "x")" }
                    .joined(separator: ", ")
                let auth = spec.authKeys.isEmpty ? "" : "\n        auth: { \(spec.authKeys.map { "\($0): x" }.joined(separator: ", ")) }"
                steps.append("      - \(kind.rawValue): \(spec.name)\n        with: { \(with) }\(auth)")
                if let first = spec.parameters?.first, first.count > 1 {
                    // Two letters swapped: the typo lint must catch and name the fix for.
                    let typo = String(first.dropFirst().prefix(1)) + String(first.prefix(1)) + String(first.dropFirst(2))
                    misspelt.append("      - \(kind.rawValue): \(spec.name)\n        with: { \(typo): x }")
                }
            }
        }
        let registry = ProviderRegistry([provider])
        let yaml = { (body: [String]) in "suite: s\nprovider: \(provider.id)\ncases:\n  - name: c\n    steps:\n" + body.joined(separator: "\n") + "\n" }
        let (_, clean) = SuiteLoader(catalog: registry).parse(text: yaml(steps), file: "all.yaml")
        #expect(clean.isEmpty, "\(clean.map(\.description))")
        let (_, wrong) = SuiteLoader(catalog: registry).parse(text: yaml(misspelt), file: "wrong.yaml")
        // A misspelt required key is also that key missing: both are said.
        let typos = wrong.filter { !$0.message.contains("needs 'with:") }
        #expect(typos.count == misspelt.count, "\(wrong.map(\.description))")
        #expect(typos.allSatisfy { $0.message.hasPrefix("unknown parameter") && $0.hint?.hasPrefix("did you mean") == true })
        // A required key left out is a lint error, as the run refuses the step without it.
        for (kind, specs) in provider.description.specs {
            for spec in specs where !spec.required.isEmpty {
                let (_, missing) = SuiteLoader(catalog: registry).parse(text: yaml(["      - \(kind.rawValue): \(spec.name)"]), file: "missing.yaml")
                #expect(
                    missing.contains { $0.message == "'\(kind.rawValue): \(spec.name)' needs 'with: { \(spec.required.joined(separator: ", ")) }'" },
                    "\(kind.rawValue): \(spec.name): \(missing.map(\.description))")
            }
        }
    }

    @Test("the mock serves every declared control action", arguments: RegistryEntry.all)
    func controlActionsServed(_ entry: RegistryEntry) async throws {
        let host = MockHost(providers: [entry.mock])
        try await HTTPClient.withHTTPClient(configuration: AsyncHTTPTransport.configuration) { client in
            let transport = AsyncHTTPTransport(client: client)
            try await withRunningMock(host) { base in
                for action in entry.mock.provider.controlActions {
                    let path = ControlAPI.action(provider: entry.mock.id, kind: action.kind, name: action.name)
                    let request = HTTPRequestData(method: "POST", url: base + path, headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
                    let response = try await transport.send(request, timeout: 10)
                    // An empty body may be refused (400, or 404 for a missing resource), but the route must exist.
                    #expect(
                        response.status < 500 && !response.text.contains("unknown control route"),
                        "\(path) answered \(response.status): \(response.text)")
                }
            }
        }
    }

    @Test("its suites pass on the embedded mock, and no credential secret reaches any transcript", arguments: RegistryEntry.all)
    func suitesPassAndRedact(_ entry: RegistryEntry) async throws {
        let registry = ProviderRegistry([entry.mock.provider])
        let loaded = SuiteLoader(catalog: registry).load(paths: [entry.suites])
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics.map(\.description))")
        #expect(!loaded.suites.isEmpty)
        var configuration = RunConfiguration()
        configuration.transcripts = .all
        let run = InProcessRun(providers: registry, mocks: [entry.mock], configuration: configuration)
        let (result, _) = try await run.run(loaded.suites)
        let problems = result.suites.flatMap(\.cases).filter { $0.verdict != .passed && $0.verdict != .skipped }.map(\.name)
        #expect(problems.isEmpty, "\(entry.mock.id): \(problems)")
        let secrets = entry.mock.provider.credentialFields.filter(\.secret).compactMap { entry.mock.provider.mockCredentials[$0.name] }
        #expect(!secrets.isEmpty)
        let exchanges = result.suites.flatMap(\.cases).flatMap(\.steps).flatMap(\.exchanges)
        #expect(!exchanges.isEmpty)
        for exchange in exchanges {
            let text = ([exchange.url, exchange.requestBody, exchange.responseBody] + (exchange.requestHeaders + exchange.responseHeaders).map(\.value))
                .joined(separator: "\n")
            for secret in secrets { #expect(!text.contains(secret), "\(entry.mock.id): a secret reached \(exchange.url)") }
        }
    }
}
