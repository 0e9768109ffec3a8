import Foundation
import PayCheckTestSupport
import Testing

/// MIT's secrets — the password, the AES key, the 3DS authKey — and card numbers beyond their last four digits never
/// reach any output of an MIT run: console, JUnit, JSON and HTML, with every transcript written.
@Suite("MIT secrets in reports")
struct MITSecretTests {
    /// The repository's MIT suites.
    static var suites: [String: String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Suites/mit")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var files: [String: String] = [:]
        for name in names where name.hasSuffix(".yaml") {
            files["mit/" + name] = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    @Test("an MIT run with every transcript shows no password, key, authKey or whole card number in any report")
    func sentinels() throws {
        let files = Self.suites
        #expect(files.count >= 4, "the MIT suites were not found")
        // A failing case of our own, so the failure paths of the reports (expected/actual, bodies) are exercised too.
        let failing = """
            suite: MIT sentinels
            provider: mit
            cases:
              - name: a failing token payment shows its bodies
                requires: [mock]
                steps:
                  - call: authenticate
                    with: { tokenization: { reference: "SN-{{ random(8) }}" }, card: { number: "4915661111111113", holder: "X", cvv: "987" } }
                    capture: { token: body.result.token }
                  - call: payWithToken
                    with: { tokenization: { token: "{{ token }}", amount: "10.00", reference: "SN-{{ random(8) }}" } }
                    expect: { body: { result.cc_number: "not-these-digits" } }
              - name: a failing link shows its bodies
                steps:
                  - call: generateLink
                    with: { reference: "SN-1", amount: "10.00" }
                    expect: { body: { P_RESPONSE.cd_response: not-success } }
            """
        let cli = try CLI(files: files.merging(["mit/sentinels.yaml": failing]) { $1 })
        let result = try cli.run(["run", "mit", "--verbose", "--transcripts", "all"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 failed"), "\(result.stdout)")
        let key = "5DCC67393750523CD165F17E1EFADD21"
        let secrets = ["SECRETO", key, key.lowercased(), "SNBX3DSAUTHKEY2026"]
        let cards = ["4915661111111113", "4111111111111111", "5555555555554444", "4000000000000002", "4000000000000119", "4000000000000101"]
        let leaks = secrets.flatMap { SecretEncodings.forms(of: $0) } + cards.map { ("card", $0) }
        let outputs = [
            ("stdout", result.stdout), ("stderr", result.stderr), ("JUnit", try cli.read("Reports/junit.xml")),
            ("JSON", try cli.read("Reports/report.json")), ("HTML", try cli.read("Reports/report.html")),
        ]
        for (output, text) in outputs {
            let readings = CLITests.readings(of: text)
            let shown = leaks.filter { form in readings.contains { $0.contains(form.text) } }
            #expect(shown.isEmpty, "\(output) shows a secret: \(shown.map { "\($0.0) '\($0.1)'" }.joined(separator: ", "))")
        }
        #expect(try cli.read("Reports/junit.xml").contains("1113"), "the last four digits of a card stay visible")
    }
}
