import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import Testing

/// Target profiles (`paycheck.yaml`): what they set, and every mistake as a diagnostic with file:line:column.
@Suite("Target profiles")
struct TargetProfileTests {
    static func parse(_ text: String, file: String = "/work/shop/paycheck.yaml") -> TargetProfile.Loaded {
        TargetProfile.parse(text, file: file, providers: MockRegistry.providers)
    }

    @Test("a profile sets base URLs, credential sources, limits, retries and TLS paths relative to its folder")
    func parsesEverything() throws {
        let loaded = Self.parse(
            """
            targets:
              staging:
                timeout: 20s
                retry: { attempts: 5, backoff: 200ms, cap: 2s }
                tls: { ca: certs/ca.pem, certificate: /etc/client.pem, key: certs/client.key }
                providers:
                  placetopay:
                    baseURL: https://checkout-test.placetopay.com/
                    credentials:
                      login: acme
                      secretKey: ${PTP_SECRET_KEY}
                    timeout: 30s
                    rateLimit: 300/min
                    concurrency: 4
            """)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let target = try #require(loaded.profile?.target("staging"))
        let placetopay = try #require(MockRegistry.providers["placetopay"])
        #expect(target.baseURL(for: placetopay) == "https://checkout-test.placetopay.com")
        #expect(target.credentials(for: placetopay, environment: ["PTP_SECRET_KEY": "s3cret-value"]) == ["login": "acme", "secretKey": "s3cret-value"])
        #expect(target.providers["placetopay"]?.rateLimit == LiveTarget.RateLimit(requests: 300, seconds: 60))
        #expect(target.providers["placetopay"]?.concurrency == 4 && target.providers["placetopay"]?.timeout == 30 && target.timeout == 20)
        #expect(target.retry.attempts == 5 && target.retry.backoff == 0.2 && target.retry.cap == 2)
        #expect(target.tls == LiveTarget.TLSOptions(ca: "/work/shop/certs/ca.pem", certificate: "/etc/client.pem", key: "/work/shop/certs/client.key"))
        // A provider the target does not name is not part of it: no credentials, even with PAYCHECK_… set, so its
        // cases are skipped and nothing goes to its public sandbox host.
        let mollie = try #require(MockRegistry.providers["mollie"])
        #expect(!target.includes(mollie) && target.includes(placetopay))
        #expect(target.credentials(for: mollie, environment: ["PAYCHECK_MOLLIE_API_KEY": "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM"]).isEmpty)
        var configuration = RunConfiguration()
        configuration.target = .live(target)
        configuration.environment = ["PAYCHECK_MOLLIE_API_KEY": "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM"]
        let runner = Runner(configuration: configuration, providers: MockRegistry.providers, transport: RefusingTransport())
        #expect(!runner.hasCredentials("mollie"))
        let suite = try #require(
            SuiteLoader(catalog: MockRegistry.providers).parse(text: "suite: m\nprovider: mollie\ncases:\n  - name: c\n    steps:\n      - call: listMethods\n", file: "m.yaml").0)
        let plan = RunPlan(suites: [suite], configuration: configuration, hasProviderCredentials: runner.hasCredentials)
        #expect(plan.items.first?.skipReason?.description.contains("does not name 'mollie'") == true, "\(plan.items.first?.skipReason?.description ?? "")")
        // A case that needs the mock is skipped naming the target the run used, not its kind.
        let mockOnly = try #require(
            SuiteLoader(catalog: MockRegistry.providers).parse(
                text: "suite: p\nprovider: placetopay\ncases:\n  - name: c\n    requires: [mock]\n    steps:\n      - call: querySession\n        with: { requestId: 1 }\n",
                file: "p.yaml"
            ).0)
        let skipped = RunPlan(suites: [mockOnly], configuration: configuration, hasProviderCredentials: { _ in true }).items.first?.skipReason
        #expect(skipped == .needsMock(target: "staging") && skipped?.description == "requires the mock's payer/control API; target 'staging' has none")
        // The built-in sandbox still has every provider.
        #expect(LiveTarget.sandbox.includes(mollie))
    }

    @Test("a profile read from disk reads its TLS files as a run does: one that is not PEM, or missing, is an error at its 'tls'")
    func tlsFilesAreRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "not a certificate\n".write(to: folder.appendingPathComponent("ca.pem"), atomically: true, encoding: .utf8)
        for (ca, message) in [("ca.pem", "cannot use '\(folder.path)/ca.pem' as the CA bundle"), ("missing.pem", "missing.pem")] {
            let file = folder.appendingPathComponent("paycheck.yaml")
            try "targets:\n  staging:\n    tls: { ca: \(ca) }\n    providers:\n      mollie: { baseURL: \"https://127.0.0.1:9\" }\n"
                .write(to: file, atomically: true, encoding: .utf8)
            let loaded = TargetProfile.load(file.path, providers: MockRegistry.providers)
            let error = try #require(loaded.diagnostics.first, "\(ca): no error")
            #expect(error.message.contains(message) && error.location?.line == 3 && error.location?.column == 10, "\(error)")
            #expect(loaded.profile == nil)
        }
    }

    @Test("a secret written in the profile is an error at its place, and the text quoted in diagnostics masks it")
    func literalSecret() {
        let loaded = Self.parse("targets:\n  staging:\n    providers:\n      mollie:\n        credentials:\n          apiKey: test_sentinel_value_123\n")
        #expect(loaded.profile == nil)
        let diagnostic = loaded.diagnostics.first
        #expect(diagnostic?.location == SourceLocation(file: "/work/shop/paycheck.yaml", line: 6, column: 19))
        #expect(diagnostic?.message == "credential 'apiKey' of 'mollie' is a secret written in the profile")
        #expect(diagnostic?.hint?.contains("${PAYCHECK_MOLLIE_API_KEY}") == true)
        #expect(loaded.source?.contains("test_sentinel_value_123") == false)
        #expect(!loaded.diagnostics.map { "\($0) \($0.hint ?? "")" }.joined().contains("test_sentinel_value_123"))
        // A key the provider publishes (Yuno's public API key ships inside the app) may be written in clear.
        let published = Self.parse(
            "targets:\n  staging:\n    providers:\n      yuno:\n        credentials:\n          publicApiKey: sandbox_public_value_123\n          privateSecretKey: ${YUNO_SECRET}\n"
        )
        #expect(published.diagnostics.isEmpty, "\(published.diagnostics)")
        let yuno = MockRegistry.providers["yuno"]
        #expect(yuno.flatMap { published.profile?.target("staging")?.credentials(for: $0, environment: [:])["publicApiKey"] } == "sandbox_public_value_123")
    }

    @Test(
        "mistakes are diagnostics with a place and a suggestion",
        arguments: [
            ("targets:\n  staging:\n    providers:\n      molie: {}\n", 4, "unknown provider 'molie'", "did you mean 'mollie'?"),
            ("targets:\n  staging:\n    timout: 2s\n", 3, "unknown key 'timout' in target 'staging'", "did you mean 'timeout'?"),
            ("targets:\n  mock: {}\n", 2, "'mock' is a built-in target and cannot be redefined", "give the target another name"),
            ("targets:\n  s:\n    tls: { certificate: c.pem }\n", 3, "'tls' needs both 'certificate' and 'key' for a client certificate, or neither", ""),
            ("targets:\n  s:\n    providers:\n      khipu: { rateLimit: 5/week }\n", 4, "'rateLimit' must be requests per period like 5/s or 300/min, got '5/week'", ""),
            ("targets:\n  s:\n    providers:\n      khipu: { apiKey: ${X} }\n", 4, "the target profile is not valid YAML", "quote a reference"),
            ("targets: {}\n", 1, "the target profile names no target under 'targets:'", ""),
        ])
    func mistakes(_ text: String, _ line: Int, _ message: String, _ hint: String) {
        let loaded = Self.parse(text)
        #expect(loaded.profile == nil)
        let diagnostic = loaded.diagnostics.first
        #expect(diagnostic?.location?.line == line, "\(loaded.diagnostics)")
        #expect(diagnostic?.message.hasPrefix(message) == true, "\(loaded.diagnostics)")
        #expect(hint.isEmpty || diagnostic?.hint?.contains(hint) == true, "\(String(describing: diagnostic?.hint))")
    }
}
