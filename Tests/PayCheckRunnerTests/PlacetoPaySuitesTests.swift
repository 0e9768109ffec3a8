import AsyncHTTPClient
import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import PayCheckSession
import PayCheckTestSupport
import Testing

/// The shipped `Suites/placetopay` run in-process against the PlacetoPay mock, on every kind of target.
@Suite("PlacetoPay suites")
struct PlacetoPaySuitesTests {
    /// `Suites/placetopay` of this checkout.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Suites/placetopay").path

    /// The shipped suites, loaded with the built-in providers.
    static func suites() throws -> [Suite] {
        let loaded = SuiteLoader(catalog: MockRegistry.providers).load(paths: [folder])
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics.map(\.description))")
        #expect(loaded.suites.count == 7)
        return loaded.suites
    }

    /// Every step result of a run.
    static func steps(_ result: RunResult) -> [StepResult] {
        result.suites.flatMap(\.cases).flatMap(\.steps)
    }

    @Test("the suites pass on the embedded mock and exercise every mapping row, auth codes 100–106 and the §1.3 envelopes")
    func embeddedMock() async throws {
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn)
        let (result, _) = try await run.run(try Self.suites())
        let problems = result.suites.flatMap { suite in
            suite.cases.filter { $0.verdict != .passed }.map { "\(suite.name) › \($0.name): \($0.failingStep?.error ?? $0.failingStep?.mismatches.first?.message ?? "")" }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(result.counts.passed == result.counts.total && result.counts.total >= 100)

        let provider = PlacetoPayProvider()
        let states = Set(Self.steps(result).compactMap(\.nativeState))
        #expect(Set(provider.outcomeMapping.rules.map(\.key)).subtracting(states).isEmpty)
        let outcomes = Set(Self.steps(result).compactMap(\.outcome))
        #expect(outcomes == Set(Outcome.allCases))
        let codes = Set(Self.steps(result).compactMap { $0.errorCode?.code })
        let expected: Set<String> = [
            "100", "101", "102", "103", "104", "105", "106", "request_not_valid", "action_not_allowed", "NA",
            "transaction_request_error", "BR", "XN", "unauthorized",
        ]
        #expect(expected.subtracting(codes).isEmpty, "not exercised: \(expected.subtracting(codes).sorted())")
    }

    @Test("the site secrets never reach the results, transcripts included")
    func redaction() async throws {
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn)
        let suites = try Self.suites().filter { $0.file.hasSuffix("auth.yaml") || $0.file.hasSuffix("notifications.yaml") }
        let (result, _) = try await run.run(suites)
        #expect(result.counts.failed == 0 && result.counts.errors == 0)
        let text = allText(result)
        for secret in ["paycheck-test-secret-key", "paycheck-inactive-secret", "not-the-secret-key", "notify-secret-", "legacy-secret-"] {
            #expect(!text.contains(secret), "\(secret) appears in the results")
        }
    }

    @Test("on the sandbox without credentials every case is skipped with a reason, nothing is sent, and the run is not green")
    func sandboxWithoutCredentials() async throws {
        var configuration = RunConfiguration()
        configuration.target = .sandbox
        configuration.environment = [:]
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
        let (result, _) = try await run.run(try Self.suites())
        let cases = result.suites.flatMap(\.cases)
        #expect(cases.allSatisfy { $0.verdict == .skipped })
        #expect(
            cases.allSatisfy {
                $0.skipReason?.kind == .needsMock
                    || $0.skipReason?.description.hasPrefix("no sandbox credentials for 'placetopay'") == true
            })
        #expect(Self.steps(result).flatMap(\.exchanges).isEmpty)
        #expect(result.exitCode == 4 && result.verdictWord == "nothing checked")
        #expect(
            result.notChecked == [
                "no case ran: every selected case was skipped",
                "provider 'placetopay' was not checked: no sandbox credentials (set PAYCHECK_PLACETOPAY_LOGIN, PAYCHECK_PLACETOPAY_SECRET_KEY)",
            ])

        var allowed = configuration
        allowed.allowEmpty = true
        let (accepted, _) = try await InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: allowed)
            .run(try Self.suites())
        #expect(accepted.exitCode == 0 && !accepted.notChecked.isEmpty)
    }

    @Test("sandbox credentials set only in part are a configuration error naming the missing variable")
    func partialCredentials() async throws {
        var configuration = RunConfiguration()
        configuration.target = .sandbox
        configuration.environment = ["PAYCHECK_PLACETOPAY_LOGIN": "my-site"]
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
        let error = await #expect(throws: RunSessionError.self) { try await run.run(try Self.suites()) }
        #expect(error?.description.contains("set PAYCHECK_PLACETOPAY_SECRET_KEY") == true)
    }

    @Test("with sandbox credentials, only the cases that need the mock are skipped")
    func sandboxPlan() throws {
        var configuration = RunConfiguration()
        configuration.target = .sandbox
        configuration.environment = ["PAYCHECK_PLACETOPAY_LOGIN": "site", "PAYCHECK_PLACETOPAY_SECRET_KEY": "key"]
        let runner = Runner(configuration: configuration, providers: MockRegistry.providers, transport: RefusingTransport())
        let suites = try Self.suites()
        let plan = RunPlan(suites: suites, configuration: configuration, hasProviderCredentials: runner.hasCredentials)
        for item in plan.items {
            let testCase = plan.suites[item.suiteIndex].cases[item.caseIndex]
            #expect((item.skipReason != nil) == testCase.requires.contains("mock"), "\(testCase.name)")
        }
        #expect(plan.items.contains { $0.skipReason == nil })
        for suite in suites {
            for testCase in suite.cases {
                let drivesMock = testCase.steps.contains { step in
                    if case .provider(let action) = step.kind { return action.kind == .payer || action.kind == .mock }
                    return false
                }
                #expect(!drivesMock || testCase.requires.contains("mock"), "'\(testCase.name)' drives the mock without requires: [mock]")
            }
        }
        #expect(runner.credentials(for: PlacetoPayProvider()) == ["login": "site", "secretKey": "key"])
    }

    @Test("a url= target drives a separately running mock the same way")
    func urlTarget() async throws {
        var configuration = RunConfiguration()
        configuration.target = .url("http://127.0.0.1")
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
        let suites = try Self.suites().filter { $0.file.hasSuffix("notifications.yaml") || $0.file.hasSuffix("errors.yaml") }
        let clock = VirtualClock()
        let result = try await HTTPClient.withHTTPClient(configuration: AsyncHTTPTransport.configuration) { client in
            // The separate mock reads the same clock as the runner, as a standalone mock reads the wall clock.
            let host = MockHost(
                providers: MockRegistry.builtIn, clock: MockClock(base: { clock.now() }), outbound: AsyncOutboundHTTP(client: client))
            return try await withRunningMock(host) { base in
                try await run.run(suites, clock: clock, controlURL: base).0
            }
        }
        #expect(result.targetKind == "url")
        #expect(result.counts.failed == 0 && result.counts.errors == 0 && result.counts.skipped == 0)
    }

    @Test("two runs sharing one standalone mock keep their own mock time (clock scopes)")
    func sharedMockClockScopes() async throws {
        var configuration = RunConfiguration()
        configuration.target = .url("http://127.0.0.1")
        configuration.jobs = 4
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
        // lifecycle.yaml moves the mock clock (expiry, pending cards) while other cases create and pay sessions.
        let suites = try Self.suites().filter { $0.file.hasSuffix("lifecycle.yaml") || $0.file.hasSuffix("outcomes.yaml") }
        let clock = VirtualClock()
        let results = try await HTTPClient.withHTTPClient(configuration: AsyncHTTPTransport.configuration) { client in
            let host = MockHost(
                providers: MockRegistry.builtIn, clock: MockClock(base: { clock.now() }), outbound: AsyncOutboundHTTP(client: client))
            return try await withRunningMock(host) { base in
                async let first = run.run(suites, clock: clock, controlURL: base).0
                async let second = run.run(suites, clock: clock, controlURL: base).0
                return try await [first, second]
            }
        }
        for result in results {
            let problems = result.suites.flatMap(\.cases).filter { $0.verdict != .passed }.map(\.name)
            #expect(problems.isEmpty, "\(problems)")
            #expect(result.counts.total >= 40)
        }
    }
}

/// A transport for plans that must never send anything.
struct RefusingTransport: HTTPTransport {
    func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
        Issue.record("unexpected request to \(request.url)")
        throw TransportError(.connect, "refused")
    }
}
