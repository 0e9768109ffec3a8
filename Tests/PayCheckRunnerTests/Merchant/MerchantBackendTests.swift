import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckReports
import PayCheckRunner
@testable import PayCheckSession
import PayCheckTestSupport
import Testing
import AsyncHTTPClient

/// The merchant's own backend under test: the Python shop (ReferenceBackends/python-shop, written apart from
/// PayCheck's code) started by the run from its contract, judged by the Mollie and PlacetoPay packs.
@Suite("Merchant backend: contract, packs, shared clock, findings", .serialized)
struct MerchantBackendTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The Python shop's contract.
    static let contractFile = root.appendingPathComponent("ReferenceBackends/python-shop/contract.yaml").path

    /// Whether `python3` can run here (the shop needs it and nothing else).
    static let hasPython: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys; sys.exit(0 if sys.version_info >= (3, 8) else 1)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// The reference shop's contract (ReferenceBackends/swift-shop, built by `swift build` into .build/debug).
    static let referenceContract = root.appendingPathComponent("ReferenceBackends/swift-shop/contract.yaml").path
    /// Whether the reference shop is built.
    static let hasReferenceShop = FileManager.default.isExecutableFile(atPath: root.appendingPathComponent(".build/debug/reference-shop").path)

    /// A run of the built-in providers against the shop of `contractFile` (the Python one by default), with
    /// `environment` added to the shop's.
    static func run(
        packs: [String], contractFile: String = contractFile, environment: [String: String] = [:], controlURL: String? = nil,
        variables: [String: String] = [:], findingGate: FindingSeverity? = nil
    ) async throws -> RunResult {
        let (contract, diagnostics) = MerchantContract.load(file: contractFile, catalog: MockRegistry.providers)
        #expect(!diagnostics.hasErrors, "\(diagnostics)")
        var configuration = RunConfiguration()
        configuration.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        configuration.transcripts = .all
        for (name, text) in variables { (configuration.variables[name], configuration.variableTexts[name]) = (JSONText.parse(text) ?? .string(text), text) }
        var run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
        struct NoContract: Error {}
        guard let contract else { throw NoContract() }
        run.contract = contract
        run.findingGate = findingGate
        let loaded = SuiteLoader(catalog: MockRegistry.providers).load(paths: packs.map { root.appendingPathComponent("Packs/\($0)").path })
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
        // Real time: the shop signs PlacetoPay seeds with its own clock. Nothing in the packs waits.
        return try await run.run(loaded.suites, clock: SystemRunnerClock(), controlURL: controlURL).0
    }

    @Test("the Python shop passes the Mollie and PlacetoPay packs through its own contract, started and stopped by the run")
    func pythonShopPasses() async throws {
        guard Self.hasPython else { print("skipped: python3 is not installed (apt install python3)"); return }
        let result = try await Self.run(packs: ["mollie", "placetopay"])
        let failing = result.suites.flatMap(\.cases).filter { $0.verdict != .passed }
        #expect(failing.isEmpty, "\(failing.map { "\($0.name): \($0.failingStep?.error ?? $0.failingStep?.mismatches.first?.message ?? "")" })")
        #expect(result.counts.passed == result.counts.total && result.counts.total >= 26)
        #expect(result.exitCode == 0)
        // The payment the shop created was linked to the case through the mock's journal (its contract has no
        // `payment:` path), and the notifications the mock sent, with the shop's answers, are evidence.
        let paid = try #require(result.suites.first { $0.provider == "placetopay" }?.cases.first)
        let evidence = paid.steps.flatMap(\.evidence)
        #expect(evidence.contains { $0.kind == .request && $0.target == "/placetopay/api/session" && $0.status == 200 })
        #expect(evidence.contains { $0.kind == .notification && $0.provider == "placetopay" && $0.status == 200 })
        #expect(result.suites.flatMap(\.cases).flatMap(\.findings).isEmpty, "a correct shop has no findings")
        // Sentinels: the evidence carries the shop's signed requests, never its keys (every transcript is kept).
        let mollieCreate = try #require(
            result.suites.first { $0.provider == "mollie" }?.cases.first?.steps.flatMap(\.evidence)
                .first { $0.target == "/mollie/v2/payments" })
        #expect(mollieCreate.headers.contains { $0.name.lowercased() == "authorization" })
        let reports = [JSONReporter.render(result), JUnitReporter.render(result), HTMLReporter.render(result)]
        for secret in [MollieProvider().mockCredentials["apiKey"]!, PlacetoPayProvider().mockCredentials["secretKey"]!] {
            #expect(reports.allSatisfy { !$0.contains(secret) }, "a secret reached a report")
        }
        #expect(!reports[0].contains("\"tranKey\":\"") || reports[0].contains("[redacted]"))
    }

    @Test("the reference shop (Swift, its own contract declares the payment id) passes the same packs")
    func referenceShopPasses() async throws {
        guard Self.hasReferenceShop else { print("skipped: .build/debug/reference-shop is not built (swift build)"); return }
        let result = try await Self.run(packs: ["mollie", "placetopay"], contractFile: Self.referenceContract)
        let failing = result.suites.flatMap(\.cases).filter { $0.verdict != .passed }
        #expect(failing.isEmpty, "\(failing.map { "\($0.name): \($0.failingStep?.error ?? $0.failingStep?.mismatches.first?.message ?? "")" })")
        #expect(result.exitCode == 0 && result.counts.passed == result.counts.total && result.counts.total >= 26)
    }

    /// A copy of contract `file`, beside it (its relative paths still hold), with `text` replaced by `replacement`;
    /// the caller removes it.
    static func variant(of file: String, replacing text: String, with replacement: String) throws -> String {
        let original = try String(contentsOfFile: file, encoding: .utf8)
        let changed = original.replacingOccurrences(of: text, with: replacement)
        #expect(changed != original, "\(file) no longer has \(text.debugDescription)")
        let copy = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("variant-\(UUID().uuidString).yaml").path
        try changed.write(toFile: copy, atomically: true, encoding: .utf8)
        return copy
    }

    /// The providers each reference backend integrates, with the contract it is run through.
    static var backends: [(contract: String, packs: [String], available: Bool)] {
        [(referenceContract, ["mollie", "placetopay", "khipu", "mit", "yuno"], hasReferenceShop), (contractFile, ["mollie", "placetopay", "khipu"], hasPython)]
    }

    @Test("every pack passes both reference backends in each correct design (notifications only, also on the return, also on every read)", arguments: ["notify", "return", "read"])
    func everyDesignPasses(design: String) async throws {
        for backend in Self.backends where backend.available {
            let result = try await Self.run(packs: backend.packs, contractFile: backend.contract, environment: ["SHOP_DESIGN": design])
            let failing = result.suites.flatMap(\.cases).filter { $0.verdict != .passed }
            #expect(
                failing.isEmpty, "\(backend.contract) (\(design)): \(failing.map { "\($0.name): \($0.failingStep?.error ?? $0.failingStep?.mismatches.first?.message ?? "")" })")
            #expect(result.suites.flatMap(\.cases).flatMap(\.findings).isEmpty)
        }
    }

    @Test("every pack passes with a second amount, written as text or as a number on the command line; dropped cents are caught with either")
    func everyPackPassesWithAnotherAmount() async throws {
        let amounts = ["mollie": "1234.56", "placetopay": "35000.25", "khipu": "12990", "mit": "250.75", "yuno": "52000"]
        for backend in Self.backends where backend.available {
            for pack in backend.packs {
                let amount = try #require(amounts[pack])
                let result = try await Self.run(packs: [pack], contractFile: backend.contract, variables: ["amount": amount])
                #expect(result.exitCode == 0, "\(pack) with amount \(amount): \(result.suites.flatMap(\.cases).filter { $0.verdict != .passed }.map(\.name))")
                // The amount reached the provider as the order's, minor units and all.
                let created = result.suites.flatMap(\.cases).first { $0.name.hasPrefix("the payment is created") || $0.name.hasPrefix("the session is created") }
                if let created { #expect(created.verdict == .passed) }
            }
        }
        guard Self.hasReferenceShop else { return }
        let dropped = try await Self.run(
            packs: ["mollie", "placetopay", "yuno"], contractFile: Self.referenceContract, environment: ["SHOP_BUG": "drop-cents"],
            variables: ["amount": "10.50"])
        #expect(dropped.exitCode == 1)
        #expect(dropped.suites.allSatisfy { suite in suite.cases.contains { $0.verdict == .failed && $0.catches?.contains("minor units") == true } })
    }

    @Test("a scenario whose premise did not happen is not green: a return page that is not there fails the return step, naming the contract key")
    func missingPremisesAreNotGreen() async throws {
        guard Self.hasPython else { print("skipped: python3 is not installed (apt install python3)"); return }
        // A return page the backend does not have (404): the scenario errors, naming the contract key.
        let file = try Self.variant(of: Self.contractFile, replacing: "url: \"/return/{{ order.id }}\"", with: "url: \"/no-such-page/{{ order.id }}\"")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await Self.run(packs: ["mollie", "placetopay", "khipu"], contractFile: file)
        let returning = result.suites.flatMap(\.cases).filter { $0.steps.contains { $0.name == "merchant return" } }
        #expect(!returning.isEmpty)
        for testCase in returning {
            #expect(testCase.verdict != .passed, "\(testCase.name) passed on a 404 return page")
            let said = (testCase.failingStep?.error ?? "") + (testCase.failingStep?.mismatches.map(\.message).joined() ?? "")
            #expect(testCase.failingStep?.name == "merchant return" && said.contains("answered 404") && said.contains("contract key 'return.request'"), "\(said)")
        }
    }

    @Test("a scenario about notifications is an error, not a pass, when none reached the backend (a backend that asks on every read and never for notifications)")
    func scenariosWithoutNotificationsAreNotGreen() async throws {
        guard Self.hasPython else { print("skipped: python3 is not installed (apt install python3)"); return }
        // Mollie and khipu: the shop creates payments without a webhook URL; PlacetoPay: its site has none.
        let file = try Self.variant(of: Self.contractFile, replacing: "    notificationUrl: \"http://127.0.0.1:{{ port }}/webhooks/placetopay\"\n", with: "")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await Self.run(
            packs: ["mollie", "placetopay", "khipu"], contractFile: file, environment: ["SHOP_DESIGN": "read", "SHOP_BUG": "no-notifications"])
        let premised = [
            "a webhook call for an unpaid payment changes nothing", "a duplicate webhook is fulfilled once",
            "a notification with a forged signature is ignored", "a duplicate notification is fulfilled once",
        ]
        for suite in result.suites {
            for testCase in suite.cases where premised.contains(testCase.name) {
                #expect(testCase.verdict == .error, "\(suite.name) › \(testCase.name) is \(testCase.verdict.rawValue)")
                #expect(testCase.failingStep?.error?.contains("premise did not happen") == true, "\(testCase.failingStep?.error ?? "")")
            }
        }
        #expect(result.exitCode == 3)
        guard Self.hasReferenceShop else { return }
        // Yuno: no webhook registered; MIT: no response URL for the site.
        let referenceFile = try Self.variant(
            of: Self.referenceContract,
            replacing:
                "  mit:\n    # MIT posts the result to the response URL configured for the merchant's site (providers.md §6.1).\n    notificationUrl: \"http://127.0.0.1:{{ port }}/webhooks/mit\"\n",
            with: "  mit: {}\n")
        defer { try? FileManager.default.removeItem(atPath: referenceFile) }
        let apps = try await Self.run(
            packs: ["yuno", "mit"], contractFile: referenceFile, environment: ["SHOP_DESIGN": "read", "SHOP_BUG": "no-notifications"])
        let appPremised = [
            "a webhook with a forged signature is ignored", "a duplicate webhook is fulfilled once",
            "a late webhook of an earlier state does not move a paid order back", "a result encrypted with another key is ignored",
            "a duplicated result is fulfilled once",
        ]
        let checked = apps.suites.flatMap(\.cases).filter { appPremised.contains($0.name) }
        #expect(checked.count == appPremised.count)
        for testCase in checked {
            #expect(
                testCase.verdict == .error && testCase.failingStep?.error?.contains("premise did not happen") == true,
                "\(testCase.name): \(testCase.verdict.rawValue) \(testCase.failingStep?.error ?? "")")
        }
    }

    @Test("contract keys that do nothing for a provider are refused with the reason")
    func uselessContractKeysAreRefused() throws {
        let text = try String(contentsOfFile: Self.contractFile, encoding: .utf8)
        let patched =
            text.replacingOccurrences(of: "  khipu: {}", with: "  khipu: { returnUrl: \"http://127.0.0.1:{{ port }}/r\" }")
            + "  yuno: { notificationUrl: \"http://127.0.0.1:{{ port }}/webhooks/yuno\" }\n"
        #expect(patched.contains("returnUrl"))
        let diagnostics = MerchantContract.parse(text: patched, file: "c.yaml", catalog: MockRegistry.providers).diagnostics
        let messages = diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("'notificationUrl' does nothing for yuno") && $0.contains("POST /v1/webhooks") }, "\(messages)")
        #expect(messages.contains { $0.contains("'returnUrl' does nothing") }, "\(messages)")
        #expect(!messages.contains { $0.contains("for placetopay") }, "PlacetoPay keeps its notification URL in the site: \(messages)")
    }

    @Test("a scenario the contract leaves out is skipped, and every report says the pack did not cover it")
    func contractGapIsReported() async throws {
        guard Self.hasPython else { print("skipped: python3 is not installed (apt install python3)"); return }
        // The Python shop's contract without its return page, beside the original (its start directory is relative).
        let original = try String(contentsOfFile: Self.contractFile, encoding: .utf8)
        let trimmed = original.replacingOccurrences(of: "return:\n  request: { method: GET, url: \"/return/{{ order.id }}\" }\n", with: "")
        #expect(trimmed != original, "the contract's return section moved")
        let file = URL(fileURLWithPath: Self.contractFile).deletingLastPathComponent().appendingPathComponent("no-return-\(UUID().uuidString).yaml").path
        try trimmed.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await Self.run(packs: ["mollie"], contractFile: file)
        let skipped = result.suites.flatMap(\.cases).filter { $0.verdict == .skipped }
        #expect(
            skipped.map(\.name) == [
                "a paid checkout, then the shopper's return, is fulfilled once", "the shopper's return does not mark the order paid",
                "a payment still pending when the shopper comes back is not fulfilled",
            ])
        #expect(skipped.first?.skipReason?.kind == .notInContract)
        #expect(result.exitCode == 0 && result.counts.passed == result.counts.total - 3)
        let packs = try #require(JSONReporter.value(result)["packs"]?.arrayValue)
        #expect(packs.count == 1 && packs.first?["ran"]?.intValue == result.counts.total - 3)
        #expect(packs.first?["leftOut"]?.arrayValue?.first?["reason"]?.stringValue?.contains("no 'return:' page") == true)
        #expect(ConsoleReporter(write: { _ in }).summary(result).contains("scenarios ran; left out by the contract: a paid checkout, then the shopper's return"))
        #expect(HTMLReporter.render(result).contains("<section id=\"packs\">"))
    }

    @Test(
        "each seeded bug of the reference shop fails the cases that catch it",
        arguments: [
            ("reuse-nonce", 12), ("trust-return", 4), ("no-signature-check", 7), ("double-fulfil", 3), ("pending-paid", 7),
            ("ignore-expiry", 2), ("other-amount", 2), ("no-idempotency-key", 1), ("decline-paid", 3), ("authorized-paid", 1),
            ("drop-cents", 2),
        ])
    func seededBugsAreCaught(bug: String, failures: Int) async throws {
        guard Self.hasReferenceShop else { print("skipped: .build/debug/reference-shop is not built (swift build)"); return }
        let result = try await Self.run(packs: ["mollie", "placetopay"], contractFile: Self.referenceContract, environment: ["SHOP_BUG": bug])
        #expect(result.counts.failed == failures, "\(result.suites.flatMap(\.cases).filter { $0.verdict != .passed }.map(\.name))")
        #expect(result.exitCode == 1)
    }

    /// Each rule of every provider with the seeded bug of the reference shop that raises it, and the pack that shows it.
    static let seededRules: [(bug: String, pack: String, rule: String)] = [
        ("app-calls-provider", "mollie", "mollie.key-in-mobile-app"), ("app-calls-provider", "placetopay", "placetopay.auth-from-mobile-app"),
        ("app-calls-provider", "khipu", "khipu.key-in-mobile-app"), ("app-calls-provider", "yuno", "yuno.secret-in-mobile-app"),
        ("new-idempotency-key", "yuno", "yuno.idempotency-key-changed"), ("no-redirect-url", "mollie", "mollie.missing-redirect-url"),
        ("no-client-info", "placetopay", "placetopay.missing-client-info"), ("short-expiration", "placetopay", "placetopay.expiration-too-soon"),
        ("no-checkout-session", "yuno", "yuno.missing-checkout-session"), ("amount-as-text", "yuno", "yuno.amount-format"),
        ("plain-mit", "mit", "mit.plain-data"), ("reuse-iv", "mit", "mit.iv-reused"),
        ("no-idempotency-key", "mollie", "mollie.missing-idempotency-key"), ("no-idempotency-key", "yuno", "yuno.missing-idempotency-key"),
        ("no-notifications", "mollie", "mollie.missing-webhook-url"), ("no-notifications", "khipu", "khipu.missing-notify-url"),
        ("reuse-nonce", "placetopay", "placetopay.nonce-reused"), ("public-http", "mollie", "mollie.insecure-url"),
        ("public-http", "placetopay", "placetopay.insecure-return-url"), ("public-http", "khipu", "khipu.insecure-url"),
        ("public-http", "yuno", "yuno.insecure-url"), ("amount-as-number", "mollie", "mollie.amount-format"),
        ("live-key", "mollie", "mollie.key-of-another-environment"), ("stale-seed", "placetopay", "placetopay.stale-seed"),
        ("sha1-trankey", "placetopay", "placetopay.sha1-trankey"), ("no-reference", "placetopay", "placetopay.missing-reference"),
        ("no-notify-version", "khipu", "khipu.notify-api-version"), ("no-transaction-id", "khipu", "khipu.missing-transaction-id"),
        ("wrong-country", "yuno", "yuno.country-currency"), ("mit-amount-format", "mit", "mit.amount-format"),
        ("reuse-reference", "mit", "mit.reference-reused"), ("clp-decimals", "khipu", "khipu.amount-decimals"),
    ]

    @Test("every rule of every provider has a seeded bug of the reference shop that raises it")
    func everyRuleIsSeeded() {
        let rules = Set(MockRegistry.providers.all.flatMap(\.merchantRules).map(\.rule.id))
        #expect(Set(Self.seededRules.map(\.rule)) == rules)
    }

    @Test("each seeded bug raises its rule, so --fail-on findings (findings:error for an error rule) fails it", arguments: seededRules)
    func seededBugsRaiseTheirRule(bug: String, pack: String, rule: String) async throws {
        guard Self.hasReferenceShop else { print("skipped: .build/debug/reference-shop is not built (swift build)"); return }
        let severity = try #require(MockRegistry.providers.all.flatMap(\.merchantRules).first { $0.rule.id == rule }).rule.severity
        let result = try await Self.run(
            packs: [pack], contractFile: Self.referenceContract, environment: ["SHOP_BUG": bug], findingGate: severity == .error ? .error : .info)
        let findings = result.suites.flatMap(\.cases).flatMap(\.findings)
        let found = try #require(findings.first { $0.rule == rule }, "\(bug) raised \(Set(findings.map(\.rule)))")
        #expect(!found.request.isEmpty && !found.source.isEmpty)
        // The finding fails its case (unless the bug failed it already): the verdict says so, not a second look.
        let raising = result.suites.flatMap(\.cases).filter { $0.findings.contains { $0.rule == rule } }
        #expect(raising.allSatisfy { $0.verdict == .failed || $0.verdict == .error }, "\(raising.map { ($0.name, $0.verdict) })")
        // 1, or 3 when the bug also keeps a scenario's premise from happening (no notifications at all).
        #expect([1, 3].contains(result.exitCode))
    }

    @Test("every rule of every provider is listed in docs/merchant.md and explained")
    func everyRuleIsDocumented() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/merchant.md"), encoding: .utf8)
        for provider in MockRegistry.providers.all {
            #expect(!provider.merchantRules.isEmpty, "\(provider.id) has no merchant rules")
            for rule in provider.merchantRules {
                #expect(page.contains("`\(rule.rule.id)`"), "\(rule.rule.id) is not in docs/merchant.md")
                #expect(rule.rule.id.hasPrefix(provider.id + ".") && !rule.rule.explanation.isEmpty)
            }
        }
    }

    @Test("a shop that reuses its PlacetoPay nonce gets a finding naming the rule and the request, and --fail-on findings fails")
    func reusedNonceIsFound() async throws {
        guard Self.hasPython else { print("skipped: python3 is not installed (apt install python3)"); return }
        var result = try await Self.run(packs: ["placetopay"], environment: ["SHOP_BUG": "reuse-nonce"], findingGate: .warning)
        let findings = result.suites.flatMap(\.cases).flatMap(\.findings)
        let reused = try #require(findings.first { $0.rule == "placetopay.nonce-reused" })
        #expect(reused.request.hasPrefix("POST /placetopay/api/session"), "\(reused.request)")
        #expect(reused.severity == .error)
        #expect(reused.source.contains("docs/providers/placetopay.md"))
        result.failOn = .findingWarnings
        #expect(result.exitCode == 1)
        // In every report: JUnit (junit-10 valid), JSON and HTML.
        let junit = JUnitReporter.render(result)
        #expect(junit.contains(#"<property name="finding" value="placetopay.nonce-reused (error)"#))
        #expect(JSONReporter.render(result).contains(#""rule": "placetopay.nonce-reused""#))
        #expect(HTMLReporter.render(result).contains("<code>placetopay.nonce-reused</code>"))
        // The failing cases show the notification the mock sent and the shop's answer.
        #expect(
            result.suites.flatMap(\.cases).filter { $0.verdict == .failed }.flatMap(\.steps).flatMap(\.evidence)
                .contains { $0.kind == .notification && $0.status != nil })
        if JUnitSchema.path != nil {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-merchant-\(UUID().uuidString).xml")
            try junit.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let problems = try JUnitSchema.problems(in: file.path)
            #expect(problems == nil, "xmllint: \(problems ?? "")")
        }
    }

    @Test("two runs sharing one standalone mock keep their clocks: one's abandoned checkout expires, the other's does not")
    func sharedMockKeepsClocksApart() async throws {
        guard Self.hasPython else { print("skipped: python3 is not installed (apt install python3)"); return }
        // The host delivers notifications (the packs' notification scenarios need them to reach the shop).
        let host = MockHost(providers: MockRegistry.builtIn, outbound: AsyncOutboundHTTP(client: .shared))
        try await withRunningMock(host) { base in
            // Run A moves its clock 31 minutes (its abandoned checkout expires) while run B's orders, created and
            // paid at the same time on the same mock, go through the whole lifecycle on real time.
            async let expiring = Self.run(packs: ["placetopay"], controlURL: base)
            async let other = Self.run(packs: ["mollie"], controlURL: base)
            let (a, b) = try await (expiring, other)
            #expect(a.exitCode == 0, "\(a.suites.flatMap(\.cases).filter { $0.verdict != .passed }.map(\.name))")
            #expect(b.exitCode == 0, "\(b.suites.flatMap(\.cases).filter { $0.verdict != .passed }.map(\.name))")
        }
    }

    @Test("a backend the user started, given the run's scoped root, passes the Mollie pack against a standalone mock (--target url, --clock-scope)")
    func userStartedBackend() async throws {
        guard Self.hasPython else { print("skipped: python3 is not installed (apt install python3)"); return }
        let host = MockHost(providers: MockRegistry.builtIn, outbound: AsyncOutboundHTTP(client: .shared))
        try await withRunningMock(host) { base in
            // Started by hand, as a developer would in a debugger: told the scope in the URL it is given.
            let port = try #require(RunSession.freePort())
            let shop = try BackendProcess(
                command: "python3 shop.py", directory: Self.root.appendingPathComponent("ReferenceBackends/python-shop").path,
                environment: ProcessInfo.processInfo.environment.merging([
                    "SHOP_PORT": String(port), "MOLLIE_API_URL": base + ControlAPI.scopedRoot("by-hand-1") + "/mollie/v2",
                    "MOLLIE_API_KEY": MollieProvider().mockCredentials["apiKey"]!,
                ]) { _, given in given })
            try await RunSession.waitUntilHealthy(
                "http://127.0.0.1:\(port)/health", process: shop, timeout: 20, transport: AsyncHTTPTransport(client: .shared))
            let contract = """
                contract: by-hand
                backend: { url: "http://127.0.0.1:\(port)" }
                checkout:
                  request: { method: POST, url: /orders, json: { provider: "{{ provider }}", amount: "{{ amount }}", currency: "{{ currency }}", description: "{{ description }}" } }
                  order: id
                order:
                  request: { url: "/orders/{{ order.id }}" }
                  state: status
                  states: { open: pending, pending: pending, paid: succeeded, failed: declined, canceled: canceled, expired: expired }
                  fulfilments: fulfilments
                return: { request: { url: "/return/{{ order.id }}" } }
                """
            var configuration = RunConfiguration()
            configuration.clockScope = "by-hand-1"
            var run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
            guard let parsed = MerchantContract.parse(text: contract, file: "by-hand.yaml", catalog: MockRegistry.providers).contract else {
                Issue.record("the contract did not parse")
                return
            }
            run.contract = parsed
            let loaded = SuiteLoader(catalog: MockRegistry.providers).load(paths: [Self.root.appendingPathComponent("Packs/mollie").path])
            let result = try await run.run(loaded.suites, clock: SystemRunnerClock(), controlURL: base).0
            await shop.stop()
            #expect(result.exitCode == 0, "\(result.suites.flatMap(\.cases).filter { $0.verdict != .passed }.map { ($0.name, $0.failingStep?.error) })")
        }
    }

    @Test("a backend that fails to start and prints the credentials it was handed: its output is shown with them masked")
    func failedStartIsRedacted() async throws {
        let key = MollieProvider().mockCredentials["apiKey"]!
        let contract = """
            contract: leaky
            backend:
              url: "http://127.0.0.1:{{ port }}"
              start:
                command: 'echo "starting with key $LEAKY_KEY and ${LEAKY_KEY}-suffix"; exit 1'
                env: { LEAKY_KEY: "{{ credentials.mollie.apiKey }}" }
                health: /health
                timeout: 5s
            checkout:
              request: { method: POST, url: /orders, json: { amount: "{{ amount }}" } }
              order: id
            order:
              request: { url: "/orders/{{ order.id }}" }
              state: status
              states: { paid: succeeded }
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("leaky-\(UUID().uuidString).yaml").path
        try contract.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        await #expect {
            _ = try await Self.run(packs: ["mollie"], contractFile: file)
        } throws: { error in
            guard case RunSessionError.backend(let message) = error else { return false }
            return message.contains("starting with key") && !message.contains(key) && message.contains(Redactor.mask)
        }
    }

    @Test("a backend that does not come up is a clear could-not-run error with its output")
    func backendThatDoesNotStart() async throws {
        guard Self.hasPython else { print("skipped: python3 is not installed (apt install python3)"); return }
        // An unknown SHOP_BUG makes the shop exit at once with a message.
        await #expect {
            _ = try await Self.run(packs: ["mollie"], environment: ["SHOP_BUG": "no-such-bug"])
        } throws: { error in
            guard case RunSessionError.backend(let message) = error else { return false }
            return message.contains("exited with status") && message.contains("no-such-bug")
        }
    }
}
