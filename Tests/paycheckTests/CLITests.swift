import AsyncHTTPClient
import Foundation
import PayCheckTestSupport
import Testing

/// Runs the built `paycheck` binary in a temporary folder holding the given suite files.
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
        let process = Process()
        process.executableURL = CLI.binary
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

    @Test("run: a wrong expectation exits 1 and prints file:line:col with expected and actual")
    func runFails() throws {
        let cli = try CLI(files: ["wrong.yaml": """
            suite: wrong
            cases:
              - name: status differs
                steps:
                  - http: { url: "{{ mock.url }}/__paycheck/echo/x?status=404" }
                    expect:
                      status: 200
            """])
        let result = try cli.run(["run", "wrong.yaml"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("wrong.yaml:7:19"), "\(result.stdout)")
        #expect(result.stdout.contains("expected 200") && result.stdout.contains("404"))
    }

    @Test("run: an unreachable URL is a JUnit <error> and exits 3")
    func runUnreachable() throws {
        let cli = try CLI(files: ["down.yaml": "suite: down\ncases:\n  - name: nobody listens\n    steps:\n      - http: { url: \"http://127.0.0.1:1/\" }\n"])
        let result = try cli.run(["run", "down.yaml", "--report-junit", "out/j.xml"])
        #expect(result.status == 3)
        #expect(try cli.read("out/j.xml").contains("<error "))
    }

    @Test("run and lint: a malformed suite exits 2 and lists every problem with its location and a suggestion")
    func invalidSuite() throws {
        let cli = try CLI(files: ["bad.yaml": """
            suite: bad
            casess: []
            cases:
              - name: c
                steps:
                  - http: { url: "http://x" }
                    expct: { status: 200 }
            """, "worse.yaml": "suite: [\n"])
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

    @Test("a --secret sentinel appears in no output in any encoding: console, JUnit, JSON, HTML")
    func sentinel() throws {
        let sentinel = #"SENTINEL-7c1e "q" <a&b> /p\q 'é' x+y"#
        let captured = "capt-SENTINEL-91b2 <c>"
        let forms = SecretEncodings.forms(of: sentinel)
        let cards = ["4110760000000081", "4110 7600 0000 0081", "4110-7600-0000-0081"]
        // Every encoded form, written into the suite as it is, travels in a text body and comes back JSON-escaped.
        let encoded = (forms.map(\.text) + cards).map { "            " + $0 }.joined(separator: "\n")
        let basic = Data("user:\(sentinel)".utf8).base64EncodedString()
        let cli = try CLI(files: ["s.yaml": """
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
            """])
        let result = try cli.run(["run", "s.yaml", "--secret", "token=\(sentinel)", "--secret", "pin=123", "--verbose", "--transcripts", "all"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("warning: secret 'pin' is shorter than 4 characters"))
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
                if let object = value as? [String: Any] { object.forEach { strings.append($0.key); collect($0.value) } }
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
        let help = try cli.run(["run", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Exit codes"))
        let usage = try cli.run(["run", "--jobs", "0"])
        #expect(usage.status == 2 && usage.stderr.contains("--jobs"))
        let missing = try cli.run(["run", "nowhere"])
        #expect(missing.status == 2 && missing.stderr.contains("no such file or folder 'nowhere'"))
    }

    @Test("explain prints a catalog entry or a state's mapping, and suggests the nearest code")
    func explain() throws {
        let cli = try CLI(files: [:])
        let code = try cli.run(["explain", "102"])
        #expect(code.status == 0 && code.stdout.contains("placetopay error 102") && code.stdout.contains("class A"))
        let state = try cli.run(["explain", "REJECTED/MC", "--provider", "placetopay"])
        #expect(state.status == 0 && state.stdout.contains("canceled"))
        let unknown = try cli.run(["explain", "10x"])
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean '100'?"))
    }

    @Test("mock serves the control API standalone until interrupted")
    func standaloneMock() async throws {
        let cli = try CLI(files: [:])
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["mock", "--port", "0"]
        process.currentDirectoryURL = cli.folder
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var banner = ""
        while !banner.contains("control API") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let base = try #require(banner.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { $0.hasPrefix("http://") }.map(String.init))
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/__paycheck/health"), timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 1 << 16)
        #expect(response.status.code == 200)
        #expect(String(buffer: body).contains("\"ok\""))
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
