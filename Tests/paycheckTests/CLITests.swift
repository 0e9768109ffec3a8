import AsyncHTTPClient
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import PayCheckTestSupport
import Testing
import NIOCore
import NIOHTTP1

/// Runs the built `paycheck` binary in a temporary folder holding the given suite files.
/// A child process a test started, stopped from any thread.
final class Running: @unchecked Sendable {
    private let process: Process
    init(_ process: Process) { self.process = process }
    /// Terminates it and waits for its end.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

struct CLI {
    let folder: URL

    init(files: [String: String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL {
        var products = Bundle.main.bundleURL
        if products.pathExtension == "xctest" { products.deleteLastPathComponent() }
        let candidate = products.appendingPathComponent("paycheck")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        // swift-testing's runner may be the bundle itself; fall back to the package's debug folder.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/paycheck")
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        try self.launch(CLI.binary, arguments, environment: environment)
    }

    /// Runs `executable` with `arguments` in the folder, `environment` added to the test's (colour off).
    func launch(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    /// Starts `paycheck mock` with `arguments` and reads its banner until `marker`; the caller stops the process.
    func startMock(_ arguments: [String], until marker: String = "control API") throws -> (process: Process, banner: String) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["mock"] + arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var banner = ""
        while !banner.contains(marker) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        return (process, banner)
    }

    /// The first `http://` URL of a mock's banner.
    /// A mock whose banner names no base URL.
    struct MockBannerError: Error, CustomStringConvertible {
        let banner: String
        var description: String { "no base URL in the mock's banner: \(banner)" }
    }

    /// Starts `paycheck mock --port 0` and answers the process (the caller stops it) and the mock's base URL.
    func startStandaloneMock() throws -> (process: Process, base: String) {
        let (process, banner) = try startMock(["--port", "0"], until: "reference merchant")
        guard let base = CLI.baseURL(in: banner) else {
            process.terminate()
            throw MockBannerError(banner: banner)
        }
        return (process, base)
    }

    static func baseURL(in banner: String) -> String? {
        banner.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { $0.hasPrefix("http://") }.map(String.init)
    }

    /// Runs the binary, sends SIGINT once `marker` appears on stdout, and waits for it to exit.
    func runInterrupted(_ arguments: [String], after marker: String) throws -> Output {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var stdout = Data()
        while !String(decoding: stdout, as: UTF8.self).contains(marker) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            stdout += chunk
        }
        process.interrupt()
        stdout += out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Validates a JUnit file against Jenkins' junit-10.xsd when `PAYCHECK_JUNIT_XSD` names it (`.ci/run` sets it);
    /// otherwise checks that it parses as XML.
    func validateJUnit(_ path: String) throws -> Bool {
        let file = folder.appendingPathComponent(path)
        guard JUnitSchema.path != nil else {
            _ = try XMLDocument(contentsOf: file)
            return true
        }
        let problems = try JUnitSchema.problems(in: file.path)
        if let problems { Issue.record("xmllint: \(problems)") }
        return problems == nil
    }
}

let passing = """
    suite: passing
    cases:
      - name: echo answers
        steps:
          - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/a", json: { n: 1 } }
            expect: { status: 200, body: { json.n: 1 } }
    """

@Suite("paycheck command line", .serialized)
struct CLITests {
    @Test("run: a passing suite exits 0 and writes both reports")
    func runPasses() throws {
        let cli = try CLI(files: ["Suites/ok.yaml": passing])
        let result = try cli.run(["run"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 case: 1 passed, 0 failed, 0 errors, 0 skipped"))
        #expect(try cli.read("Reports/junit.xml").contains("<testsuites"))
        #expect(try cli.read("Reports/report.json").contains("\"schemaVersion\""))
        #expect(try cli.read("Reports/report.html").hasPrefix("<!doctype html>"))
    }

    @Test("run: every configuration error replaces the previous run's green reports with reports of this run that say what was wrong")
    func configurationErrorsReplaceReports() throws {
        let cli = try CLI(files: ["Suites/ok.yaml": passing])
        let refused: [[String]] = [
            ["--timeout", "abc"], ["-j", "0"], ["--shard", "3/2"], ["--secret", "novalue"], ["--var", "novalue"], ["--no-such-flag"],
            ["--target", "nosuch"], ["--record", "rec"], ["--baseline", "missing.json"], ["--profile", "missing.yaml"],
            ["--target", "replay=missing"], ["--fail-on", "new-failures"], ["--run-timeout", "-1s"], ["--quiet", "--verbose"],
            ["--clock-scope", "bad scope"], ["--fail-on", "nothing"], ["--color", "purple"], ["--transcripts", "some"],
        ]
        for arguments in refused {
            let green = try cli.run(["run", "--quiet"])
            #expect(green.status == 0, "\(green.stderr)")
            let result = try cli.run(["run"] + arguments)
            #expect(result.status == 2, "\(arguments): exit \(result.status) \(result.stderr)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(try cli.read("Reports/report.json").utf8)) as? [String: Any], "\(arguments): no JSON report")
            #expect(report["exitCode"] as? Int == 2, "\(arguments): the JSON report is not this run's")
            #expect((report["counts"] as? [String: Any])?["passed"] as? Int == 0, "\(arguments): the previous run's green report survived")
            let junit = try cli.read("Reports/junit.xml")
            #expect(junit.contains("<error"), "\(arguments): the JUnit report does not say the run was refused")
            #expect(try cli.read("Reports/report.html").contains("configuration") || junit.contains("command line"), "\(arguments)")
        }
        // A report path named on a refused command line is the one replaced.
        _ = try cli.run(["run", "--quiet", "--report-json", "elsewhere.json"])
        #expect(try cli.run(["run", "--report-json", "elsewhere.json", "--timeout", "x"]).status == 2)
        let elsewhere = try JSONSerialization.jsonObject(with: Data(try cli.read("elsewhere.json").utf8)) as? [String: Any]
        #expect(elsewhere?["exitCode"] as? Int == 2)
    }

    @Test("run: --secret overrides a suite variable of the same name, as --var does")
    func secretOverridesSuiteVariable() throws {
        let cli = try CLI(files: [
            "Suites/secret.yaml": """
            suite: secret
            vars: { token: public-default }
            cases:
              - name: the secret is sent
                steps:
                  - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/s", json: { token: "{{ token }}" } }
                    expect: { status: 200, body: { json.token: { ne: public-default } } }
            """
        ])
        let result = try cli.run(["run", "--quiet", "--secret", "token=sentinel-secret-4711"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!(try cli.read("Reports/report.json")).contains("sentinel-secret-4711"))
    }

    @Test("run: --var keeps the type a suite declares (a text stays text, digits and all); an undeclared one is typed")
    func varKeepsDeclaredType() throws {
        let cli = try CLI(files: [
            "Suites/vars.yaml": """
            suite: vars
            vars: { amount: "10.50" }
            cases:
              - name: echo keeps the amount as text
                steps:
                  - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/a", json: { amount: "{{ amount }}", n: "{{ n }}" } }
                    expect: { status: 200, body: { json.amount: { type: string }, json.n: { type: number } } }
                  - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/b", json: { amount: "{{ number(amount) }}" } }
                    expect: { status: 200, body: { json.amount: 12990 } }
            """
        ])
        let result = try cli.run(["run", "--no-reports", "--var", "amount=12990", "--var", "n=3"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    // A wrong expectation (exit 1, file:line:col with expected and actual) is the golden case Tests/Cases/exit-1-failure.

    @Test("run: an unreachable URL is a JUnit <error> and exits 3")
    func runUnreachable() throws {
        let cli = try CLI(files: ["down.yaml": "suite: down\ncases:\n  - name: nobody listens\n    steps:\n      - http: { url: \"http://127.0.0.1:1/\" }\n"])
        let result = try cli.run(["run", "down.yaml", "--report-junit", "out/j.xml"])
        #expect(result.status == 3)
        #expect(try cli.read("out/j.xml").contains("<error "))
    }

    @Test("run and lint: a malformed suite exits 2 and lists every problem with its location and a suggestion")
    func invalidSuite() throws {
        let cli = try CLI(files: [
            "bad.yaml": """
            suite: bad
            casess: []
            cases:
              - name: c
                steps:
                  - http: { url: "http://x" }
                    expct: { status: 200 }
            """, "worse.yaml": "suite: [\n",
        ])
        for command in ["run", "lint"] {
            let result = try cli.run([command, "bad.yaml", "worse.yaml"])
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr.contains("bad.yaml:2:1: error: unknown key 'casess' in the suite"), "\(result.stderr)")
            #expect(result.stderr.contains("did you mean 'cases'?"))
            #expect(result.stderr.contains("bad.yaml:7:9: error: unknown key 'expct' in a step"))
            #expect(result.stderr.contains("worse.yaml:2:1: error: invalid YAML"))
            #expect(result.stderr.contains("3 errors in 2 files"), "\(result.stderr)")
        }
    }

    @Test("lint: an unknown with: key, auth: key and control action of a provider exit 2 with location and suggestion")
    func lintProviderDeclarations() throws {
        let cli = try CLI(files: [
            "p.yaml": """
            suite: declarations
            provider: placetopay
            cases:
              - name: c
                requires: [mock]
                steps:
                  - call: createSession
                    auth: { secretkey: x }
                    with: { paymnet: {}, returnUrl: "https://m.test/r" }
                  - payer: pya
                    with: { requestId: 1 }
                  - mock: site
                    with: { login: s, notificationURL: "http://127.0.0.1:9/n" }
            """
        ])
        let result = try cli.run(["lint", "p.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("p.yaml:8:17: error: unknown auth override 'secretkey' for 'call: createSession' of provider 'placetopay'"), "\(result.stderr)")
        #expect(result.stderr.contains("did you mean 'secretKey'?"))
        #expect(result.stderr.contains("p.yaml:9:17: error: unknown parameter 'paymnet' for 'call: createSession' of provider 'placetopay'"))
        #expect(result.stderr.contains("did you mean 'payment'?"))
        #expect(result.stderr.contains("p.yaml:10:16: error: unknown payer action 'pya' for provider 'placetopay'"))
        #expect(result.stderr.contains("did you mean 'pay'?"))
        #expect(result.stderr.contains("p.yaml:13:27: error: unknown parameter 'notificationURL' for 'mock: site' of provider 'placetopay'"))
        #expect(result.stderr.contains("did you mean 'notificationUrl'?"))
        #expect(result.stderr.contains("4 errors in 1 file"), "\(result.stderr)")
    }

    @Test("lint: a fault's kind, arguments and combinations are checked, literal or partly templated")
    func lintFaults() throws {
        let cli = try CLI(files: [
            "f.yaml": """
            suite: lint faults
            provider: mollie
            cases:
              - name: bad faults
                requires: [mock]
                steps:
                  - mock: fault
                    with: { provider: mollie, operation: createPayment, kind: explode }
                  - mock: fault
                    with: { provider: mollie, kind: status, status: 999 }
                  - mock: fault
                    with: { path: "/mollie{{ suffix }}", kind: reset, status: 503 }
                  - mock: fault
                    with: { provider: mollie, kind: "{{ kind }}", status: 1 }
            """
        ])
        let lint = try cli.run(["lint", "f.yaml"])
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("f.yaml:8:") && lint.stderr.contains("unknown fault kind 'explode'"), "\(lint.stderr)")
        #expect(lint.stderr.contains("fault 'status' must be a number in 200…599, got 999"))
        #expect(lint.stderr.contains("'status' does not apply to fault kind 'reset'"))
        // A templated kind is left to the mock; the undefined variable of line 12 comes in the same pass.
        #expect(lint.stderr.contains("undefined variable 'suffix'") && lint.stderr.contains("4 errors"), "\(lint.stderr)")
    }

    @Test("targets: each live target's providers, credentials masked, the missing ones named; a mistyped --target is suggested")
    func targetsCommand() throws {
        let profile =
            "targets:\n  staging:\n    providers:\n      placetopay:\n        baseURL: https://ptp.example\n        credentials:\n          login: acme\n          secretKey: ${PTP_SECRET}\n"
        let cli = try CLI(files: ["paycheck.yaml": profile])
        let shown = try cli.run(["targets"], environment: ["PTP_SECRET": "sentinel-secret-4242"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("staging (paycheck.yaml)") && shown.stdout.contains("placetopay: https://ptp.example — ready"))
        #expect(shown.stdout.contains("acme (written in the profile)") && shown.stdout.contains("set (secret, 20 characters)"))
        #expect(shown.stdout.contains("missing: ") && shown.stdout.contains("PAYCHECK_MOLLIE_API_KEY"))
        #expect(!(shown.stdout + shown.stderr).contains("sentinel-secret-4242"))
        let mistyped = try cli.run(["run", "--target", "stagin"])
        #expect(mistyped.status == 2 && mistyped.stderr.contains("Did you mean 'staging'?"), "\(mistyped.stderr)")
        let written = try CLI(files: ["p.yaml": profile.replacingOccurrences(of: "${PTP_SECRET}", with: "sentinel-secret-4242")])
        for command in [["targets", "--profile", "p.yaml"], ["lint", "--profile", "p.yaml", "none"], ["run", "--profile", "p.yaml", "--target", "staging"]] {
            let refused = try written.run(command)
            #expect(refused.status == 2 && refused.stderr.contains("p.yaml:8:22: error: credential 'secretKey' of 'placetopay' is a secret"), "\(command): \(refused.stderr)")
            #expect(!(refused.stdout + refused.stderr).contains("sentinel-secret-4242"))
        }
    }

    @Test(
        "paycheck mock with a TLS key that is not its certificate's is a configuration error (exit 2) naming both files",
        .enabled(if: TestCertificates.isAvailable, "openssl is not installed (apt-get install openssl)"))
    func mockRefusesMismatchedKey() async throws {
        let certificates = try await TestCertificates.made()
        defer { certificates.remove() }
        let cli = try CLI(files: [:])
        let result = try await TestProcess.offPool {
            try cli.run(["mock", "--port", "0", "--tls-certificate", certificates.server.certificate, "--tls-key", certificates.client.key])
        }
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("does not belong to the certificate") && result.stderr.contains("client.key"), "\(result.stderr)")
    }

    @Test(
        "the live path from the command line: a profile on the HTTPS mock, --record, replay offline, drift; a wrong CA is exit 3",
        .enabled(if: TestCertificates.isAvailable, "openssl is not installed (apt-get install openssl)"))
    func livePathCommandLine() async throws {
        let certificates = try await TestCertificates.made()
        defer { certificates.remove() }
        let suites = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Suites").path
        let cli = try CLI(files: [:])
        // Every command runs off the Swift concurrency pool (``TestProcess/offPool(_:)``): it waits on child processes.
        let (mock, banner) = try await TestProcess.offPool {
            let (process, banner) = try cli.startMock(
                ["--port", "0", "--tls-certificate", certificates.server.certificate, "--tls-key", certificates.server.key], until: "reference merchant")
            return (Running(process), banner)
        }
        defer { mock.stop() }
        let base = try #require(banner.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { $0.hasPrefix("https://") }.map(String.init))
        func target(_ name: String, ca: String) -> String {
            "  \(name):\n    tls: { ca: \"\(ca)\" }\n    providers:\n"
                + MockCredentials.providerIDs.map { "      \($0): { baseURL: \"\(base)/\($0)\" }\n" }.joined()
        }
        try ("targets:\n" + target("local", ca: certificates.ca) + target("wrong-ca", ca: certificates.otherCA))
            .write(to: cli.folder.appendingPathComponent("paycheck.yaml"), atomically: true, encoding: .utf8)
        let environment = MockCredentials.environment.merging(["NO_COLOR": "1"]) { $1 }
        // The counts line, without its wall time.
        func summary(_ output: CLI.Output) -> String {
            let line = output.stdout.split(separator: "\n").first { $0.contains(" cases: ") }.map(String.init) ?? ""
            return line.components(separatedBy: " in ").first ?? line
        }

        let recorded = try await TestProcess.offPool { try cli.run(["run", suites, "--target", "local", "--record", "rec", "--no-reports", "-q"], environment: environment) }
        #expect(recorded.status == 0 && summary(recorded).contains(" passed, 0 failed, 0 errors"), "\(recorded.stdout.suffix(800))\(recorded.stderr.suffix(800))")
        // The count says what ran: the cases that need the mock's control are skipped on a live target, not recorded runs.
        let passed = try #require(summary(recorded).components(separatedBy: ": ").last?.split(separator: " ").first.flatMap { Int($0) })
        #expect(recorded.stderr.contains("recorded \(passed) case(s) that ran into rec"), "\(recorded.stderr)")
        let wrong = try await TestProcess.offPool { try cli.run(["run", suites, "--target", "wrong-ca", "--no-reports", "-q"], environment: environment) }
        #expect(wrong.status == 3 && wrong.stdout.contains("the TLS handshake failed"), "\(wrong.stdout.suffix(600))")
        mock.stop()

        // Offline, no credentials: the same verdicts.
        let replayed = try await TestProcess.offPool { try cli.run(["run", suites, "--target", "replay=rec", "--no-reports", "-q"], environment: ["NO_COLOR": "1"]) }
        #expect(replayed.status == 0 && summary(replayed) == summary(recorded), "\(summary(replayed)) vs \(summary(recorded))")
        let drift = try await TestProcess.offPool { try cli.run(["drift", "rec", "--report-json", "drift.json", "--report-html", "drift.html"]) }
        #expect(drift.status == 0 && drift.stdout.contains("exit 0: no drift"), "\(drift.stdout.suffix(1500))")
        #expect(try cli.read("drift.json").contains(#""drifted": false"#) && (try cli.read("drift.html")).contains("no drift"))
    }

    @Test("run: a run that checks nothing exits 4 and says so in every report; --allow-empty accepts it")
    func nothingChecked() throws {
        let cli = try CLI(files: ["m.yaml": "suite: m\ncases:\n  - name: needs the mock\n    requires: [mock]\n    steps:\n      - wait: 1ms\n"])
        let result = try cli.run(["run", "m.yaml", "--target", "sandbox"], environment: ["NO_COLOR": "1"])
        #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("NOT CHECKED") && result.stdout.contains("exit 4: nothing was checked"))
        #expect(!result.stdout.contains("PASS "))
        #expect(try cli.read("Reports/junit.xml").contains(#"<property name="verdict" value="nothing checked"/>"#))
        #expect(try cli.read("Reports/report.json").contains(#""verdict": "nothing checked""#))
        #expect(try cli.read("Reports/report.html").contains("PayCheck — nothing checked"))
        #expect(try cli.run(["run", "m.yaml", "--target", "sandbox", "--allow-empty"]).status == 0)
    }

    @Test("reports always describe this run: a green run, then an invalid suite, then SIGINT mid-run")
    func reportsDescribeThisRun() throws {
        var slow = "suite: slow\ncases:\n  - name: quick\n    steps:\n      - wait: 1ms\n"
        for index in 1...4 { slow += "  - name: slow \(index)\n    steps:\n      - wait: 30s\n" }
        let cli = try CLI(files: [
            "ok.yaml": "suite: ok\ncases:\n  - name: fine\n    steps:\n      - wait: 1ms\n",
            "bad.yaml": "suite: bad\ncasse: []\n", "slow.yaml": slow,
        ])
        #expect(try cli.run(["run", "ok.yaml"]).status == 0)
        #expect(try cli.read("Reports/report.json").contains(#""verdict": "conformant""#))

        #expect(try cli.run(["run", "bad.yaml"]).status == 2)
        let junit = try cli.read("Reports/junit.xml")
        #expect(junit.contains("bad.yaml:2:1: error: unknown key 'casse' in the suite") && junit.contains("<error"))
        #expect(try cli.read("Reports/report.json").contains(#""verdict": "suite invalid""#))
        #expect(try cli.read("Reports/report.html").contains("PayCheck — suite invalid"))
        #expect(try cli.validateJUnit("Reports/junit.xml"))

        let interrupted = try cli.runInterrupted(["run", "slow.yaml", "-j", "1", "-v"], after: "quick")
        #expect(interrupted.status == 130, "\(interrupted.stdout)\(interrupted.stderr)")
        #expect(interrupted.stdout.contains("exit 130: interrupted"))
        let stopped = try cli.read("Reports/junit.xml")
        #expect(stopped.contains(#"<skipped message="interrupted: the run was stopped before this case started"/>"#))
        #expect(try cli.validateJUnit("Reports/junit.xml"))
        let json = try cli.read("Reports/report.json")
        #expect(json.contains(#""verdict": "interrupted""#) && json.contains(#""exitCode": 130"#))
        #expect(try cli.read("Reports/report.html").contains("PayCheck — interrupted"))
    }

    @Test("a report path that is not a regular file exits 2 and says so (ReportFileTests checks the rest in-process)")
    func reportPaths() throws {
        let cli = try CLI(files: ["ok.yaml": "suite: ok\ncases:\n  - name: fine\n    steps:\n      - wait: 1ms\n"])
        let device = try cli.run(["run", "ok.yaml", "--report-json", "/dev/null"])
        #expect(device.status == 2)
        #expect(device.stderr.contains("error: cannot write report '/dev/null': '/dev/null' is not a regular file"), "\(device.stderr)")
    }

    @Test("papercuts: a misspelt command names the command; --no-reports writes no file")
    func papercuts() throws {
        let cli = try CLI(files: ["ok.yaml": "suite: ok\ncases:\n  - name: fine\n    steps:\n      - wait: 1ms\n"])
        let misspelt = try cli.run(["lnt"])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains("no such file or folder 'lnt'") && misspelt.stderr.contains("did you mean the command 'paycheck lint'?"))
        // A provider's value types, from its operation declarations: Mollie takes an amount's value as a string.
        let typed = try CLI(files: [
            "m.yaml":
                "suite: m\nprovider: mollie\ncases:\n  - name: c\n    steps:\n      - call: createPayment\n        with: { amount: { currency: EUR, value: 1.00 }, description: x, redirectUrl: https://shop.example/r }\n"
        ]).run(["lint", "m.yaml"])
        #expect(typed.status == 2 && typed.stderr.contains("m.yaml:7:49: error: 'call: createPayment': 'amount.value' must be text"), "\(typed.stderr)")
        // Nothing given and no suites here: not "did you mean the command 'paycheck states'?" (Suites is near states).
        let empty = try CLI(files: [:]).run(["run"])
        #expect(empty.status == 2)
        #expect(!empty.stderr.contains("paycheck states") && empty.stderr.contains("create a first suite with 'paycheck init'"), "\(empty.stderr)")
        let quiet = try CLI(files: ["ok.yaml": "suite: ok\ncases:\n  - name: fine\n    steps:\n      - wait: 1ms\n"])
        #expect(try quiet.run(["run", "ok.yaml", "--no-reports"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: quiet.folder.appendingPathComponent("Reports").path))
    }

    @Test("init: the binary writes the scaffold and says what to do next; an existing file or an unknown provider exits 2 (ScaffoldTests checks the files in-process)")
    func initScaffold() throws {
        let cli = try CLI(files: [:])
        let created = try cli.run(["init", "shop"])
        #expect(created.status == 0 && created.stdout.hasPrefix("Created:\n  shop/suites/placetopay/smoke.yaml\n"), "\(created.stdout)\(created.stderr)")
        #expect(try cli.read("shop/suites/paycheck.schema.json") == (try cli.run(["schema"])).stdout)
        let again = try cli.run(["init", "shop"])
        #expect(again.status == 2 && again.stderr.contains("error: init would overwrite 'shop/suites/placetopay/smoke.yaml'"), "\(again.stderr)")
        let unknown = try cli.run(["init", "--provider", "molie", "x"])
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean 'mollie'?"))
        let noPack = try cli.run(["init", "--merchant", "nopay", "x"], environment: ["PAYCHECK_PACKS": MerchantDocTests.root.appendingPathComponent("Packs").path])
        #expect(noPack.status == 2 && noPack.stderr.contains("no merchant pack for 'nopay'"), "\(noPack.stderr)")
    }

    @Test("init --merchant's CI jobs build the commit the BuildInfo plugin stamped into this binary, or say what to edit when it knows none")
    func initJobs() throws {
        let cli = try CLI(files: [:])
        let version = try cli.run(["version"]).stdout
        let commit = (version.components(separatedBy: "(commit ").last?.components(separatedBy: ",").first ?? "").replacingOccurrences(of: "+changes", with: "")
        let packs = MerchantDocTests.root.appendingPathComponent("Packs").path
        let created = try cli.run(["init", "--merchant", "mollie", "shop"], environment: ["PAYCHECK_PACKS": packs])
        #expect(created.status == 0, "\(created.stderr)")
        for job in [try cli.read("shop/ci/github-actions.yml"), try cli.read("shop/ci/gitlab-ci.yml")] {
            if commit == "unknown" {
                #expect(job.contains("PAYCHECK_COMMIT: \"\"   # EDIT:"))
            } else {
                #expect(job.contains("PAYCHECK_COMMIT: \"\(commit)\""), "\(version)")
            }
            // Either the source the binary was built from, or an EDIT line and init's one-line warning.
            #expect(job.contains("PAYCHECK_SOURCE: \"\"   # EDIT:") == created.stderr.contains("knows no git remote"), "\(created.stderr)")
        }
        #expect(created.stderr.split(separator: "\n").count <= 1, "one line of warning at most: \(created.stderr)")
    }

    @Test("a --secret sentinel appears in no output in any encoding: console, JUnit, JSON, HTML")
    func sentinel() throws {
        let sentinel = #"SENTINEL-7c1e "q" <a&b> /p\q 'é' x+y"#
        let captured = "capt-SENTINEL-91b2 <c>"
        let forms = SecretEncodings.forms(of: sentinel)
        let cards = ["4110760000000081", "4110 7600 0000 0081", "4110-7600-0000-0081"]
        // Every encoded form, written into the suite as it is, travels in a text body and comes back JSON-escaped.
        let encoded = (forms.map(\.text) + cards).map { "            " + $0 }.joined(separator: "\n")
        let basic = Data("user:\(sentinel)".utf8).base64EncodedString()
        let cli = try CLI(files: [
            "s.yaml": """
            suite: secret
            cases:
              - name: templated into a query, a form body and headers
                steps:
                  - http:
                      method: POST
                      url: "{{ mock.url }}/__paycheck/echo/form"
                      query: { q: "{{ token }}" }
                      headers: { Authorization: "Bearer {{ token }}", X-Token: "{{ token }}", X-Basic: "Basic \(basic)" }
                      form: { token: "{{ token }}", card: "4110 7600 0000 0081" }
                    expect: { status: 599 }
              - name: templated into JSON and compared
                steps:
                  - http:
                      method: POST
                      url: "{{ mock.url }}/__paycheck/echo/json"
                      json: { token: "{{ token }}", card: "4110-7600-0000-0081" }
                    expect:
                      body: { json.token: wrong }
              - name: every encoding in a text body
                steps:
                  - http:
                      method: POST
                      url: "{{ mock.url }}/__paycheck/echo/text"
                      body: |
            \(encoded)
                    expect: { status: 599 }
              - name: a secret capture in the exchange it came from
                steps:
                  - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/issue", json: { session: "\(captured)" } }
                    capture: { session: { from: body.json.session, secret: true } }
                  - http: { url: "{{ mock.url }}/__paycheck/echo/use?s={{ session }}" }
                    expect: { status: 599 }
            """
        ])
        let result = try cli.run(["run", "s.yaml", "--secret", "token=\(sentinel)", "--secret", "pin=123", "--verbose", "--transcripts", "all"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("warning: secret 'pin' is shorter than 4 characters"))
        for report in ["Reports/junit.xml", "Reports/report.json", "Reports/report.html"] {
            #expect(
                try cli.read(report).contains("secret &apos;pin&apos; is shorter") || cli.read(report).contains("secret 'pin' is shorter")
                    || cli.read(report).contains("secret &#39;pin&#39; is shorter"), "\(report) does not carry the warning")
        }
        let outputs = [
            ("stdout", result.stdout), ("stderr", result.stderr), ("JUnit", try cli.read("Reports/junit.xml")),
            ("JSON", try cli.read("Reports/report.json")), ("HTML", try cli.read("Reports/report.html")),
        ]
        let leaks = forms + SecretEncodings.forms(of: captured) + cards.map { ("card", $0) }
        for (output, text) in outputs {
            let readings = CLITests.readings(of: text)
            let shown = leaks.filter { form in readings.contains { $0.contains(form.text) } }
            #expect(shown.isEmpty, "\(output) shows a secret: \(shown.map { "\($0.name) '\($0.text)'" }.joined(separator: ", "))")
        }
        #expect(try cli.read("Reports/junit.xml").contains("••••••"), "the transcript shows where the secret was")
        #expect(try cli.read("Reports/junit.xml").contains("•••• •••• •••• 0081"), "card numbers keep their last four digits")
    }

    /// A report as written, with XML/HTML character references decoded, and every string of it when it is JSON.
    static func readings(of text: String) -> [String] {
        var decoded = text
        if let references = try? NSRegularExpression(pattern: "&#(x?)([0-9a-fA-F]+);") {
            let matches = references.matches(in: decoded, range: NSRange(decoded.startIndex..., in: decoded)).reversed()
            for match in matches {
                guard let whole = Range(match.range, in: decoded), let digits = Range(match.range(at: 2), in: decoded) else { continue }
                let hex = match.range(at: 1).length > 0
                guard let value = UInt32(decoded[digits], radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value) else { continue }
                decoded.replaceSubrange(whole, with: String(scalar))
            }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            decoded = decoded.replacingOccurrences(of: entity, with: character)
        }
        var readings = [text, decoded]
        if let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) {
            var strings: [String] = []
            func collect(_ value: Any) {
                if let string = value as? String { strings.append(string) }
                if let array = value as? [Any] { array.forEach(collect) }
                if let object = value as? [String: Any] {
                    object.forEach {
                        strings.append($0.key); collect($0.value)
                    }
                }
            }
            collect(json)
            readings.append(strings.joined(separator: "\n"))
        }
        return readings
    }

    @Test("list, lint, version and help")
    func otherCommands() throws {
        let cli = try CLI(files: ["Suites/ok.yaml": passing])
        let list = try cli.run(["list"])
        #expect(list.status == 0 && list.stdout.contains("  - echo answers"))
        let lint = try cli.run(["lint"])
        #expect(lint.status == 0 && lint.stdout.contains("1 suite, 1 case: no problems found."))
        let version = try cli.run(["version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("paycheck "))
        // The commit comes from the BuildInfo plugin (git), the configuration from the build, the runtime from the
        // process's mapped libraries: a `swift build` binary loads the toolchain's libswiftCore.so.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".git").path
        #expect(version.stdout.contains("(commit "))
        if FileManager.default.fileExists(atPath: checkout) { #expect(!version.stdout.contains("commit unknown"), "\(version.stdout)") }
        #expect(version.stdout.contains("debug build, Swift runtime shared)"), "\(version.stdout)")
        let flag = try cli.run(["--version"])
        #expect(flag.status == 0 && flag.stdout == version.stdout)
        let help = try cli.run(["run", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Exit codes"))
        let usage = try cli.run(["run", "--jobs", "0"])
        #expect(usage.status == 2 && usage.stderr.contains("--jobs"))
        let huge = try cli.run(["run", "--timeout", "1e30s"])
        #expect(huge.status == 2 && huge.stderr.contains("--timeout '1e30s' is longer than the limit of 3650d (10 years)"), "\(huge.stderr)")
        let missing = try cli.run(["run", "nowhere"])
        #expect(missing.status == 2 && missing.stderr.contains("no such file or folder 'nowhere'"))
    }

    @Test("mock serves the control API standalone until interrupted")
    func standaloneMock() async throws {
        let (process, banner) = try CLI(files: [:]).startMock(["--port", "0"], until: "reference merchant")
        defer { if process.isRunning { process.terminate() } }
        let base = try #require(CLI.baseURL(in: banner))
        // The banner names each provider's test account, what a backend pointed at the mock configures.
        #expect(banner.contains("test credentials: login=paycheck-test "), "\(banner)")
        #expect(banner.components(separatedBy: "test credentials:").count == 6, "\(banner)")
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/__paycheck/health"), timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 1 << 16)
        #expect(response.status.code == 200)
        #expect(String(buffer: body).contains("\"ok\""))
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("mock refuses a non-loopback --host without --allow-remote (exit 2); with it, the control API needs the printed token")
    func remoteMockNeedsToken() async throws {
        let cli = try CLI(files: [:])
        let refused = try cli.run(["mock", "--host", "0.0.0.0", "--port", "0"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--allow-remote") && refused.stderr.contains("beyond this machine"))

        let (process, banner) = try cli.startMock(
            ["--host", "0.0.0.0", "--allow-remote", "--port", "0"], until: "paycheck run --control-token")
        defer { if process.isRunning { process.terminate() } }
        #expect(banner.contains("warning: listening on 0.0.0.0"))
        let port = try #require(banner.split(separator: "\n").first.flatMap { $0.split(separator: ":").last }.flatMap { Int($0) })
        let token = try #require(banner.components(separatedBy: "--control-token ").last?.prefix { $0.isHexDigit })
        let base = "http://127.0.0.1:\(port)/__paycheck/health"
        let without = try await HTTPClient.shared.execute(HTTPClientRequest(url: base), timeout: .seconds(5))
        #expect(without.status.code == 403)
        var request = HTTPClientRequest(url: base)
        request.headers.add(name: "X-PayCheck-Control-Token", value: String(token))
        let with = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        #expect(with.status.code == 200)
        process.interrupt()
        process.waitUntilExit()
    }

    @Test("states prints a provider's mapping table; merge puts shards back together and refuses a missing one")
    func statesAndMerge() throws {
        let cli = try CLI(files: [:])
        let states = try cli.run(["states", "placetopay"])
        #expect(states.status == 0 && states.stdout.contains("REJECTED/MC") && states.stdout.contains("canceled"))
        #expect(try cli.run(["states", "nopay"]).status == 2)
        _ = try cli.run(["init", "shop"])
        for k in 1...2 {
            let shard = try cli.run([
                "run", "shop/suites", "--shard", "\(k)/2", "--run-id", "r", "--report-json", "s\(k).json", "--report-junit", "",
                "--report-html", "",
            ])
            #expect(shard.status == 0, "\(shard.stdout)\(shard.stderr)")
        }
        let merged = try cli.run(["merge", "s1.json", "s2.json", "--report-json", "m.json", "--report-junit", "m.xml", "--report-html", ""])
        #expect(merged.status == 0 && merged.stdout.contains("merged 2 reports") && merged.stdout.contains("2 passed"), "\(merged.stdout)\(merged.stderr)")
        #expect(try cli.read("m.xml").contains("<testsuites"))
        let missing = try cli.run(["merge", "s1.json", "--report-json", "x.json"])
        #expect(missing.status == 2 && missing.stderr.contains("shard 2/2 missing"))
        let gh = try cli.run(["run", "shop/suites", "--no-reports", "--annotations", "github"])
        #expect(gh.status == 0 && !gh.stdout.contains("::error"))
    }

    @Test("words that tell the truth: init's suites/ folder is read by default, --no-reports refuses a code-quality path, a busy port has a hint")
    func truthfulWords() throws {
        let suite = "suite: s\ncases:\n  - name: c\n    steps:\n      - http: { url: \"{{ mock.url }}/__paycheck/echo/x\" }\n        expect: { status: 200 }\n"
        let cli = try CLI(files: ["suites/s.yaml": suite])
        let run = try cli.run(["run", "--no-reports"])
        #expect(run.status == 0 && run.stderr.contains("no Suites/ here: reading suites/"), "\(run.stdout)\(run.stderr)")
        #expect(!run.stderr.contains("did you mean the command"))
        let dropped = try cli.run(["run", "--no-reports", "--report-codequality", "cq.json"])
        #expect(dropped.status == 2 && dropped.stderr.contains("--report-codequality cq.json would be dropped"), "\(dropped.stderr)")
        let (mock, banner) = try cli.startMock(["--port", "0"])
        defer { if mock.isRunning { mock.terminate() } }
        let port = try #require(banner.split(separator: "\n").first.flatMap { $0.split(separator: ":").last }.flatMap { Int($0) })
        let busy = try cli.run(["mock", "--port", String(port)])
        #expect(busy.status == 3 && busy.stderr.contains("the port is in use") && busy.stderr.contains("--port 0 for a free one"), "\(busy.stderr)")
    }

    @Test("a shard with no case is exit 4 (0 with --allow-empty) with a report of this run, and merge takes it")
    func emptyShard() throws {
        let cli = try CLI(files: [:])
        _ = try cli.run(["init", "shop"])
        var exits: [Int32] = []
        for k in 1...3 {
            let shard = try cli.run([
                "run", "shop/suites", "--shard", "\(k)/3", "--run-id", "r", "--report-json", "s\(k).json", "--report-junit", "s\(k).xml",
                "--report-html", "",
            ])
            exits.append(shard.status)
            if k == 3 { #expect(shard.stdout.contains("no cases selected"), "\(shard.stdout)") }
        }
        #expect(exits == [0, 0, 4], "the init suite has 2 cases: shard 3/3 selects none")
        let allowed = try cli.run([
            "run", "shop/suites", "--shard", "3/3", "--run-id", "r", "--allow-empty", "--report-json", "s3.json", "--report-junit", "",
            "--report-html", "",
        ])
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        let empty = try cli.read("s3.json")
        #expect(empty.contains(#""id": "r""#) && empty.contains(#""index": 3"#) && !empty.contains(#""suiteDigest": """#), "\(empty.prefix(800))")
        let merged = try cli.run(["merge", "s1.json", "s2.json", "s3.json", "--report-json", "m.json", "--report-junit", "", "--report-html", ""])
        #expect(merged.status == 0 && merged.stdout.contains("2 passed"), "\(merged.stdout)\(merged.stderr)")
    }

    @Test("a live Mollie key on the sandbox target is refused unless --allow-live")
    func liveKeyRefused() throws {
        let cli = try CLI(files: [
            "live.yaml": """
            suite: live
            provider: mollie
            cases:
              - name: methods
                steps:
                  - call: listMethods
            """
        ])
        let live = ["PAYCHECK_MOLLIE_API_KEY": "live_abcdefghijklmnopqrstuvwxyz0123"]
        let refused = try cli.run(["run", "live.yaml", "--target", "sandbox", "--no-reports"], environment: live)
        #expect(refused.status == 2 && refused.stderr.contains("live_ key") && refused.stderr.contains("--allow-live"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("abcdefghijklmnopqrstuvwxyz0123"), "the key itself is never printed")
    }
}
