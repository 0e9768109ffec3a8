import PayCheckCore
import Testing
import Foundation

/// The merchant contract: parsed into its parts, and every mistake a located diagnostic with a suggestion.
@Suite("Merchant contract")
struct MerchantContractTests {
    static let valid = """
        contract: shop
        backend:
          url: "http://127.0.0.1:{{ port }}"
          start: { command: python3 shop.py, env: { SHOP_PORT: "{{ port }}" }, health: /health, timeout: 5s }
        checkout:
          request: { method: POST, url: /orders, json: { amount: "{{ amount }}" } }
          order: data.id
          payment: data.payment
        order:
          request: { method: GET, url: "/orders/{{ order.id }}" }
          state: status
          states: { paid: succeeded, open: pending }
          fulfilments: fulfilled
        providers:
          acme: { notificationUrl: "http://127.0.0.1:{{ port }}/hook" }
        """

    @Test("a valid contract parses into its parts")
    func parses() throws {
        let (contract, diagnostics) = MerchantContract.parse(text: Self.valid, file: "shop.yaml", catalog: TestCatalog())
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let parsed = try #require(contract)
        #expect(parsed.name == "shop")
        #expect(parsed.backend.start?.timeout == 5)
        #expect(parsed.backend.start?.environment.map(\.name) == ["SHOP_PORT"])
        #expect(parsed.checkout.orderID.description == "data.id")
        #expect(parsed.checkout.paymentID?.description == "data.payment")
        #expect(parsed.order.states == ["paid": .succeeded, "open": .pending])
        #expect(parsed.providers["acme"]?.notificationURL != nil)
    }

    @Test(
        "mistakes are located, with did-you-mean",
        arguments: [
            ("contract: shop\nbakend: {}\n", 2, 1, "unknown key 'bakend' in the contract", "did you mean 'backend'?"),
            (
                valid.replacingOccurrences(of: "states: { paid: succeeded, open: pending }", with: "states: { paid: succeded }"), 12, 19,
                "'succeded' is not an outcome", "did you mean 'succeeded'?"
            ),
            (valid.replacingOccurrences(of: "  acme:", with: "  acmee:"), 15, 3, "unknown provider 'acmee'", "did you mean 'acme'?"),
            (valid.replacingOccurrences(of: "url: /orders,", with: "url: orders,"), 6, 33, "must start with http:// or https://", nil),
            (valid.replacingOccurrences(of: "SHOP_PORT:", with: "1PORT:"), 4, 45, "'1PORT' is not an environment variable name", nil),
            (valid.replacingOccurrences(of: "health: /health, ", with: ""), 4, 10, "'start' needs a 'health' path", nil),
            // What the run would refuse when it starts the backend is refused here (lint = run).
            (valid.replacingOccurrences(of: "{{ port }}\" }", with: "{{ prot }}\" }"), 4, 56, "undefined variable 'prot'", "did you mean 'port'?"),
            (valid.replacingOccurrences(of: "{{ port }}\" }", with: "{{ credentials.acme.apiKye }}\" }"), 4, 56, "'credentials.acme' has no 'apiKye'", "did you mean 'apiKey'?"),
            (valid.replacingOccurrences(of: "{{ port }}\" }", with: "{{ mock.uri }}\" }"), 4, 56, "'mock' has no member 'uri'", "did you mean 'url'?"),
            (valid.replacingOccurrences(of: "health: /health", with: "health: 123"), 4, 80, "'health' must be a path on the backend", nil),
            // `backend.url` is rendered before the credentials exist.
            (valid.replacingOccurrences(of: "127.0.0.1:{{ port }}\"\n", with: "127.0.0.1:{{ credentials.acme.apiKey }}\"\n"), 3, 8, "undefined variable 'credentials'", nil),
            (
                valid.replacingOccurrences(of: "command: python3 shop.py,", with: "command: python3 shop.py, directory: no-such-folder,"), 4, 10,
                "'directory' 'no-such-folder' is not a folder", nil
            ),
        ] as [(String, Int, Int, String, String?)])
    func located(_ yaml: String, _ line: Int, _ column: Int, _ message: String, _ hint: String?) {
        let (contract, diagnostics) = MerchantContract.parse(text: yaml, file: "shop.yaml", catalog: TestCatalog())
        #expect(contract == nil)
        let match = diagnostics.first { $0.message.contains(message) }
        #expect(match != nil, "\(diagnostics)")
        #expect(match?.location?.line == line && match?.location?.column == column, "\(String(describing: match?.location))")
        if let hint { #expect(match?.hint == hint) }
    }

    @Test("a merchant: step names checkout, order or return, and checkout defines order for the steps after it")
    func steps() {
        let loader = SuiteLoader(catalog: TestCatalog())
        let good = loader.parse(
            text: """
                suite: s
                provider: acme
                cases:
                  - name: c
                    steps:
                      - merchant: checkout
                        with: { amount: "10.00" }
                      - payer: pay
                        with: { requestId: "{{ order.payment }}" }
                      - merchant: order
                """, file: "s.yaml")
        #expect(!good.diagnostics.hasErrors, "\(good.diagnostics)")
        let bad = loader.parse(
            text: """
                suite: s
                cases:
                  - name: c
                    steps:
                      - merchant: chekout
                """, file: "s.yaml")
        #expect(bad.diagnostics.contains { $0.message == "unknown merchant action 'chekout'" && $0.hint == "did you mean 'checkout'?" })
    }

    @Test("a contract that is not UTF-8, or too large, is refused in one located line, never with its bytes")
    func unreadableContractIsOneLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("binary.yaml")
        try Data([0x63, 0x6F, 0x6E, 0x3A, 0x20, 0xFF, 0xFE] + Array(repeating: 0x41, count: 100_000)).write(to: binary)
        let large = folder.appendingPathComponent("large.yaml")
        try Data(repeating: 0x41, count: (4 << 20) + 10).write(to: large)
        for file in [binary, large] {
            let (contract, diagnostics) = MerchantContract.load(file: file.path, catalog: TestCatalog())
            #expect(contract == nil)
            let text = diagnostics.map(\.description).joined(separator: "\n")
            #expect(diagnostics.count == 1 && text.count < 400, "\(text.prefix(500))")
            #expect(text.contains("the contract") && text.contains(file.lastPathComponent))
        }
    }
}
