import Foundation
import PayCheckCore
import PayCheckRunner
import PayCheckTestSupport
import Testing

@testable import PayCheckReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("JUnit reporter")
struct JUnitReporterTests {
    @Test("matches the golden file")
    func golden() {
        assertSnapshot(JUnitReporter.render(Fixture.run()), named: "junit", ext: "xml")
    }

    @Test("parses as XML with the right counts, names and verdict elements")
    func parses() throws {
        let xml = JUnitReporter.render(Fixture.run())
        let document = try XMLDocument(xmlString: xml, options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "name")?.stringValue == "paycheck")
        #expect(root.attribute(forName: "tests")?.stringValue == "7")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        #expect(root.attribute(forName: "time")?.stringValue == "1.235")
        #expect(root.attribute(forName: "skipped") == nil)

        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 2)
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["PlacetoPay lifecycle", "health.yml"])
        let lifecycle = try #require(suites.first)
        #expect(lifecycle.attribute(forName: "tests")?.stringValue == "6")
        #expect(lifecycle.attribute(forName: "skipped")?.stringValue == "2")
        #expect(lifecycle.attribute(forName: "timestamp")?.stringValue == "2026-01-15T10:00:00")
        #expect(lifecycle.attribute(forName: "time")?.stringValue == "0.537")
        #expect(lifecycle.attribute(forName: "package")?.stringValue == "placetopay")
        #expect(suites.last?.attribute(forName: "package")?.stringValue == "http")

        let properties = try lifecycle.nodes(forXPath: "properties/property").compactMap { $0 as? XMLElement }
        let pairs = properties.map { ($0.attribute(forName: "name")?.stringValue ?? "", $0.attribute(forName: "value")?.stringValue ?? "") }
        #expect(pairs.map(\.0) == ["provider", "target", "targetKind", "version", "suiteFile", "verdict"])
        #expect(pairs.map(\.1) == ["placetopay", "mock", "mock", "9.9.9-test", Fixture.lifecycleFile, "could not run 1 of 5 cases"])

        let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(cases.count == 7)
        #expect(cases.first?.attribute(forName: "classname")?.stringValue == "placetopay.lifecycle")
        #expect(cases.last?.attribute(forName: "classname")?.stringValue == "http.health")
        #expect(cases[1].attribute(forName: "name")?.stringValue == "reject card <4111> & \"friends\"")
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
        #expect(try document.nodes(forXPath: "//testcase/error").count == 1)
        #expect(try document.nodes(forXPath: "//testcase/skipped").count == 2)

        let failure = try #require(try document.nodes(forXPath: "//failure").first as? XMLElement)
        #expect(failure.attribute(forName: "type")?.stringValue == "StatusMismatch")
        #expect(failure.attribute(forName: "message")?.stringValue == "status: expected eq 200, got 402 (and 1 more)")
        let failureText = failure.stringValue ?? ""
        #expect(failureText.contains("step \"pay\" failed"))
        #expect(failureText.contains("suites/placetopay/lifecycle.yaml:26:13: status: expected eq 200, got 402"))
        #expect(failureText.contains("suites/placetopay/lifecycle.yaml:27:13: outcome: expected eq \"approved\", got \"rejected\""))

        let error = try #require(try document.nodes(forXPath: "//error").first as? XMLElement)
        #expect(error.attribute(forName: "type")?.stringValue == "TransportError")
        #expect(error.stringValue?.contains("suites/placetopay/lifecycle.yaml:32:9: transport: connection refused (127.0.0.1:9)") == true)

        let skipped = try document.nodes(forXPath: "//skipped").compactMap { ($0 as? XMLElement)?.attribute(forName: "message")?.stringValue }
        #expect(skipped == ["requires: sandbox — the mock plays the payer (payer: pay)", "xfail: PTP-12 duplicate reference accepted"])

        // Escaped markup survives the round trip; the carriage return is kept as a character reference.
        let out = try #require(try document.nodes(forXPath: "//testcase[2]/system-out").first?.stringValue)
        #expect(out.contains("<b>Tarjeta</b> & \\\"rechazada\\\" 'sí' ]]> fin"))
        #expect(out.contains("}\r\n"))
        #expect(out.contains("> POST https://checkout.test/api/collect"))
        #expect(out.contains("< 402 (200 ms)"))
    }

    @Test("duplicate case names become unique per classname")
    func uniqueNames() throws {
        let f = "suites/p/dups.yaml"
        let names = ["a", "a", "a (2)", "a", ""]
        let cases = names.enumerated().map { index, name in
            CaseResult(name: name, location: Fixture.loc(f, index + 3, 5), verdict: .passed, startedAt: Fixture.base)
        }
        // A second suite file with the same stem and provider shares the classname, so names stay unique across it too.
        let other = SuiteResult(
            file: "other/dups.yml", name: "Other", provider: "p",
            cases: [CaseResult(name: "a", location: Fixture.loc("other/dups.yml", 2, 3), verdict: .passed, startedAt: Fixture.base)],
            startedAt: Fixture.base)
        let run = RunResult(
            suites: [SuiteResult(file: f, name: "Dups", provider: "p", cases: cases, startedAt: Fixture.base), other],
            target: "mock", targetKind: "mock", version: "1", hostname: "h", startedAt: Fixture.base, duration: 0)
        let document = try XMLDocument(xmlString: JUnitReporter.render(run), options: [])
        let rendered = try document.nodes(forXPath: "//testcase").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        #expect(rendered == ["a", "a (2)", "a (2) (2)", "a (3)", "case at line 7", "a (4)"])
        #expect(Set(rendered).count == rendered.count)
    }

    @Test("no character XML 1.0 forbids survives, and no CDATA terminator appears")
    func noIllegalCharacters() {
        let xml = JUnitReporter.render(Fixture.run())
        let illegal = xml.unicodeScalars.filter { !XMLText.isAllowed($0) }
        #expect(illegal.isEmpty, "illegal scalars: \(illegal.map { String($0.value, radix: 16) })")
        #expect(!xml.unicodeScalars.contains("\u{1B}"))
        #expect(!xml.contains("]]>"))
        #expect(!xml.contains("<![CDATA["))
        #expect(xml.contains("\u{FFFD}[31mred\u{FFFD}[0m\u{FFFD}\u{FFFD}"))
    }

    @Test("escapes attributes and text")
    func escaping() {
        #expect(XMLText.attribute("a<b>&\"c'\t\n\r\u{1}") == "a&lt;b&gt;&amp;&quot;c&apos;&#9;&#10;&#13;\u{FFFD}")
        #expect(XMLText.text("]]> <&>\r\n\t\u{FFFF}") == "]]&gt; &lt;&amp;&gt;&#13;\n\t\u{FFFD}")
    }

    @Test("a suite without a name falls back to its file name, never an empty name")
    func suiteNameFallback() {
        #expect(Fixture.health().displayName == "health.yml")
        let blank = SuiteResult(file: "", name: "  ", provider: nil, cases: [], startedAt: Fixture.base)
        #expect(blank.displayName == "(unnamed suite)")
        #expect(Fixture.lifecycle().fileStem == "lifecycle")
    }

    @Test("caps each transcript at 64 KiB on a character boundary")
    func transcriptCap() throws {
        let body = String(repeating: "ñandú ", count: 20_000)
        let step = StepResult(
            name: "big", location: Fixture.loc("f.yaml", 1, 1),
            exchanges: [
                Exchange(
                    method: "GET", url: "https://x.test", requestHeaders: [], requestBody: "", status: 200,
                    responseHeaders: [], responseBody: body, duration: 0, error: nil)
            ])
        let testCase = CaseResult(name: "big", location: Fixture.loc("f.yaml", 1, 1), verdict: .passed, steps: [step], startedAt: Fixture.base)
        let transcript = Transcript.render(testCase)
        let note = try #require(transcript.split(separator: "\n").last)
        #expect(note.hasPrefix("… transcript cut at 65536 bytes ("))
        #expect(transcript.utf8.count - note.utf8.count - 1 <= 65_536)
        #expect(Transcript.cap("añb", limit: 2) == "a\n… transcript cut at 2 bytes (3 bytes left out)")
    }

    @Test("formats JUnit times and timestamps without locale or offset")
    func formats() {
        #expect(ReportFormat.seconds3(0) == "0.000")
        #expect(ReportFormat.seconds3(1.2345) == "1.235")
        #expect(ReportFormat.seconds3(-1) == "0.000")
        #expect(ReportFormat.seconds3(.nan) == "0.000")
        #expect(ReportFormat.seconds3(61.5) == "61.500")
        #expect(ReportFormat.timestamp(Date(timeIntervalSince1970: 1_768_471_200.999)) == "2026-01-15T10:00:00")
        #expect(ReportFormat.iso8601(Date(timeIntervalSince1970: 1_768_471_200.25)) == "2026-01-15T10:00:00.250Z")
        #expect(ReportFormat.iso8601(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(ReportFormat.human(0.0123) == "12 ms")
        #expect(ReportFormat.human(1.234) == "1.23 s")
    }

    @Test("validates against junit-10.xsd with xmllint", .enabled(if: JUnitSchema.path != nil, Comment(rawValue: JUnitSchema.skipReason)))
    func validatesAgainstXSD() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-junit-\(UUID().uuidString).xml")
        try JUnitReporter.render(Fixture.run()).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let problems = try JUnitSchema.problems(in: file.path)
        #expect(problems == nil, "xmllint: \(problems ?? "")")
    }

    /// The merchant fixture with its failing case passed, so only its finding can fail the gate.
    static func passingMerchantRun(failOn: FailOn) -> RunResult {
        var result = HTMLBrowserTests.merchantRun()
        result.suites[0].cases[0].verdict = .passed
        result.suites[0].cases[0].steps[1].issue = nil
        result.failOn = failOn
        // As the runner does under `--fail-on findings`: the finding fails its step, and so its case.
        if let gate = failOn.findingThreshold, MerchantTarget.failOnFindings(&result.suites[0].cases[0].steps, gate: gate) {
            result.suites[0].cases[0].verdict = .failed
        }
        return result
    }

    @Test("findings are suite properties and system-out; under --fail-on findings a case that broke a rule is a <failure>, and junit-10 valid")
    func findings() throws {
        let quiet = JUnitReporter.render(Self.passingMerchantRun(failOn: .any))
        #expect(
            quiet.contains(#"<property name="finding" value="placetopay.sha1-trankey (warning) in &apos;a notification with a forged signature is ignored&apos;"#)
                || quiet.contains(#"<property name="finding" value="placetopay.sha1-trankey (warning)"#), "\(quiet)")
        #expect(quiet.contains("finding placetopay.sha1-trankey (warning): tranKey was computed with SHA-1"))
        #expect(!quiet.contains("<failure"))
        let gated = Self.passingMerchantRun(failOn: .findingWarnings)
        #expect(gated.exitCode == 1)
        let xml = JUnitReporter.render(gated)
        #expect(xml.contains(#"type="MerchantFinding""#))
        #expect(xml.contains(#"<testsuites name="paycheck" tests="1" failures="1""#), "\(xml.prefix(300))")
        #expect(!JUnitReporter.render(Self.passingMerchantRun(failOn: .findingErrors)).contains("<failure"), "a warning does not fail findings:error")
        guard JUnitSchema.path != nil else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-junit-\(UUID().uuidString).xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let problems = try JUnitSchema.problems(in: file.path)
        #expect(problems == nil, "xmllint: \(problems ?? "")")
    }
}
