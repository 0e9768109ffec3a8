import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import PayCheckReports
import PayCheckSession
import PayCheckTestSupport
import Synchronization
import Testing

/// The live path end to end: the built-in suites through a live target (the sandbox code path: the provider's own
/// signing, no control API) against the mock served over HTTPS with a CA made at test time.
@Suite("The live path over TLS", .enabled(if: TestCertificates.isAvailable, "openssl is not installed (apt-get install openssl)"))
struct LiveTLSTests {
    /// The mock's test credentials under each provider's `PAYCHECK_…` variable, as a merchant's CI would set them.
    static var environment: [String: String] { MockCredentials.environment }

    /// A live target whose every provider is the mock at `base`.
    static func target(_ base: String, tls: LiveTarget.TLSOptions) -> LiveTarget {
        var target = LiveTarget.mock(at: base, providers: MockRegistry.providers.all, name: "tls-mock", profile: "test")
        target.tls = tls
        return target
    }

    /// Runs the built-in suites on `target`, with the mock's clock on the runner's.
    static func run(
        _ suites: [Suite], on target: @escaping @Sendable (String) -> LiveTarget, serverCA clientCA: String? = nil, certificates: TestCertificates,
        recording: RunRecording? = nil
    ) async throws -> RunResult {
        let clock = VirtualClock()
        let host = MockHost(providers: MockRegistry.builtIn, clock: MockClock(base: { clock.now() }))
        let tls = try MockTLS.configuration(certificate: certificates.server.certificate, key: certificates.server.key, clientCA: clientCA)
        return try await withRunningMock(host, tls: tls) { base in
            var configuration = RunConfiguration()
            configuration.target = .live(target(base))
            configuration.environment = environment
            configuration.stepTimeout = 10
            configuration.recording = recording
            let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
            return try await run.run(suites, clock: clock).0
        }
    }

    @Test("every provider's suites pass through the live code path against the HTTPS-served mock")
    func suitesPassOverTLS() async throws {
        let certificates = try await TestCertificates.made()
        defer { certificates.remove() }
        let result = try await Self.run(try CIFitTests.builtIn(), on: { Self.target($0, tls: .init(ca: certificates.ca)) }, certificates: certificates)
        let ran = result.suites.flatMap { suite in suite.cases.filter { $0.verdict != .skipped }.map { (suite, $0) } }
        let failing = ran.filter { $0.1.verdict != .passed }.map {
            "\($0.0.file) › \($0.1.name): \($0.1.steps.compactMap(\.error)) \($0.1.steps.flatMap(\.mismatches).map { $0.message })"
        }
        #expect(failing.isEmpty, "\(failing.prefix(5))")
        #expect(result.target == "tls-mock" && result.targetKind == "sandbox")
        for provider in MockRegistry.providers.providerIDs {
            #expect(ran.contains { $0.0.provider == provider && $0.1.verdict == .passed }, "no case of \(provider) ran")
        }
        #expect(result.exitCode == 0)
    }

    @Test("a recording of a run against the HTTPS mock replays offline with identical verdicts, and holds no secret")
    func recordAndReplay() async throws {
        let certificates = try await TestCertificates.made()
        defer { certificates.remove() }
        let suites = try CIFitTests.builtIn()
        let recording = RunRecording()
        let base = Mutex("")
        let recorded = try await Self.run(
            suites,
            on: { url in
                base.withLock { $0 = url }
                return Self.target(url, tls: .init(ca: certificates.ca))
            }, certificates: certificates, recording: recording)
        let folder = certificates.folder.appendingPathComponent("recording").path
        let target = Self.target(base.withLock { $0 }, tls: .init())
        let baseURLs = Dictionary(uniqueKeysWithValues: MockRegistry.providers.all.map { ($0.id, target.baseURL(for: $0)) })
        try RecordingFile.write(
            recording.all, header: .init(target: "tls-mock", recordedAt: recorded.startedAt, version: "test", baseURLs: baseURLs), to: folder)

        // No secret of the run is in any file of the recording.
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
        let text = try files.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }.joined()
        #expect(files.count > 100 && text.contains("\"exchanges\""))
        for provider in MockRegistry.providers.all {
            for field in provider.credentialFields where field.secret {
                guard let secret = provider.mockCredentials[field.name], secret.count >= 8 else { continue }
                #expect(!text.contains(secret), "\(provider.id).\(field.name) is in the recording")
            }
        }

        // Offline: no mock, no credentials; the same verdicts, case by case.
        let (header, cases) = try RecordingFile.read(folder)
        var configuration = RunConfiguration()
        configuration.replay(cases, from: folder, baseURLs: header.baseURLs)
        let replayed = try await InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
            .run(suites).0
        let verdicts = { (result: RunResult) in result.suites.flatMap { suite in suite.cases.map { "\(suite.file) › \(suite.name) › \($0.name) = \($0.verdict)" } } }
        let differing = zip(verdicts(recorded), verdicts(replayed)).filter { $0 != $1 }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(replayed.counts.passed == recorded.counts.passed && replayed.counts.passed > 50)

        // Drift: the same suites on the mock answer like the recording, but for noise; one field changed in one
        // recorded answer is named — provider, operation, field — and nothing else.
        let noise = { (id: String) in MockRegistry.providers[id]?.driftNoise ?? [] }
        let rerun = try await RunSession.rerunOnMock(suites, recorded: cases, directory: folder)
        let clean = DriftReport.compare(recorded: cases, mock: rerun, noise: noise)
        #expect(clean.entries.isEmpty, "\(clean.entries.prefix(5))")
        #expect(clean.casesCompared > 50 && clean.exchangesCompared > 100)
        // The test's switch: a `field` fault on the mock changes Mollie's createPayment answer, every time.
        let fault: [String: Value] = ["kind": "field", "provider": "mollie", "operation": "createPayment", "ratio": 1, "field": "status", "value": "pending"]
        let changed = try await RunSession.rerunOnMock(suites, recorded: cases, directory: folder, faults: [fault])
        let drifted = DriftReport.compare(recorded: cases, mock: changed, noise: noise)
        #expect(drifted.entries.map { "\($0.provider) \($0.operation) \($0.field) \($0.kind)" } == ["mollie POST /mollie/v2/payments body.status value"])
        #expect(drifted.entries.first?.recorded == #""open""# && drifted.entries.first?.mock == #""pending""#)
    }

    /// The cases that ran (not skipped), with their suite.
    static func ran(_ result: RunResult) -> [(suite: SuiteResult, case: CaseResult)] {
        result.suites.flatMap { suite in suite.cases.filter { $0.verdict != .skipped }.map { (suite, $0) } }
    }

    /// The transport issues of a case's steps.
    static func transportErrors(_ testCase: CaseResult) -> [TransportError] {
        testCase.steps.compactMap { if case .transport(let error)? = $0.issue { error } else { nil } }
    }

    @Test("a CA that did not sign the server's certificate makes every case that sends a TLS error, and the run exits 3")
    func wrongCA() async throws {
        let certificates = try await TestCertificates.made()
        defer { certificates.remove() }
        let suites = try CIFitTests.builtIn().filter { $0.provider == "mollie" || $0.provider == "placetopay" }
        let result = try await Self.run(suites, on: { Self.target($0, tls: .init(ca: certificates.otherCA)) }, certificates: certificates)
        // Every case that reached the network is a TLS error; a case that sends nothing (a deep link read) passes.
        let errors = Self.ran(result).filter { $0.case.verdict == .error }
        #expect(errors.count > 10 && result.counts.failed == 0)
        for (suite, testCase) in errors {
            let error = Self.transportErrors(testCase).first
            #expect(error?.cause == .tls && error?.message.contains("TLS handshake failed") == true, "\(suite.file) › \(testCase.name): \(String(describing: error))")
        }
        #expect(result.exitCode == 3)
    }

    @Test("a provider's own TLS in the profile wins over the target's: its cases pass where the others' handshakes fail")
    func providerTLS() async throws {
        let certificates = try await TestCertificates.made()
        defer { certificates.remove() }
        let suites = try CIFitTests.builtIn().filter { $0.provider == "mollie" || $0.provider == "placetopay" }
        let result = try await Self.run(
            suites,
            on: { base in
                var target = Self.target(base, tls: .init(ca: certificates.otherCA))
                target.providers["mollie"]?.tls = .init(ca: certificates.ca)
                return target
            }, certificates: certificates)
        let ran = Self.ran(result)
        let mollie = ran.filter { $0.suite.provider == "mollie" }, placetopay = ran.filter { $0.suite.provider == "placetopay" }
        #expect(!mollie.isEmpty && mollie.allSatisfy { $0.case.verdict == .passed }, "\(mollie.filter { $0.case.verdict != .passed }.map(\.case.name).prefix(3))")
        #expect(placetopay.contains { Self.transportErrors($0.case).first?.cause == .tls })
        // The profile says it, and `paycheck targets` reads the same.
        let profile = TargetProfile.parse(
            "targets:\n  staging:\n    tls: { ca: other.pem }\n    providers:\n      mollie:\n        tls: { ca: ca.pem }\n", file: "/shop/paycheck.yaml",
            providers: MockRegistry.providers)
        #expect(profile.diagnostics.isEmpty && profile.profile?.target("staging")?.providers["mollie"]?.tls?.ca == "/shop/ca.pem", "\(profile.diagnostics)")
    }

    @Test("a mock that asks for a client certificate gets the profile's, and refuses a client without one")
    func clientCertificate() async throws {
        let certificates = try await TestCertificates.made()
        defer { certificates.remove() }
        let suites = try CIFitTests.builtIn().filter { $0.provider == "khipu" }
        let client = certificates.client
        let with = try await Self.run(
            suites, on: { Self.target($0, tls: .init(ca: certificates.ca, certificate: client.certificate, key: client.key)) },
            serverCA: certificates.ca, certificates: certificates)
        #expect(!Self.ran(with).isEmpty && Self.ran(with).allSatisfy { $0.case.verdict == .passed } && with.exitCode == 0)
        let without = try await Self.run(suites, on: { Self.target($0, tls: .init(ca: certificates.ca)) }, serverCA: certificates.ca, certificates: certificates)
        #expect(!Self.ran(without).isEmpty && Self.ran(without).allSatisfy { $0.case.verdict == .error } && without.exitCode == 3)
    }

    @Test("a provider whose host cannot be reached has its cases errors with the reason; the others pass; exit 3")
    func unreachableProvider() async throws {
        let certificates = try await TestCertificates.made()
        defer { certificates.remove() }
        let suites = try CIFitTests.builtIn().filter { $0.provider == "yuno" || $0.provider == "mollie" }
        let result = try await Self.run(
            suites,
            on: { base in
                var target = Self.target(base, tls: .init(ca: certificates.ca))
                target.providers["yuno"]?.baseURL = "https://127.0.0.1:1/yuno"
                return target
            }, certificates: certificates)
        let ran = Self.ran(result)
        #expect(ran.contains { $0.suite.provider == "mollie" } && ran.contains { $0.suite.provider == "yuno" })
        for (suite, testCase) in ran {
            if suite.provider == "mollie" {
                #expect(testCase.verdict == .passed, "\(suite.file) › \(testCase.name)")
            } else {
                #expect(testCase.verdict == .error && Self.transportErrors(testCase).first?.cause == .connect, "\(suite.file) › \(testCase.name)")
            }
        }
        // After the retries of the first cases, the others are not sent: one reason, no wait per case.
        let reasons = ran.filter { $0.suite.provider == "yuno" }.compactMap { Self.transportErrors($0.case).first?.message }
        #expect(reasons.contains { $0.contains("not sent: yuno's host could not be reached (3 attempts)") }, "\(reasons.prefix(3))")
        #expect(result.exitCode == 3)
    }
}
