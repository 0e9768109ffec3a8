import PayCheckCore
import PayCheckProviders
import PayCheckReports
import PayCheckRunner
import Testing

/// `paycheck drift` on answers the adapter reads as something other than their body: MIT's, encrypted on the wire.
@Suite("drift")
struct DriftTests {
    /// A recorded MIT case whose one answer is `encrypted` on the wire and `read` decrypted.
    static func mitCase(encrypted: String, read: String?) -> RunRecording.Case {
        var exchange = Exchange(
            method: "POST", url: "https://wppsandbox.mit.com.mx/gen", requestHeaders: [], requestBody: "xml=…", status: 200,
            responseHeaders: [], responseBody: encrypted, duration: 0.1, error: nil)
        exchange.readBody = read
        return RunRecording.Case(
            file: "Suites/mit/webpayplus.yaml", suite: "MIT · WebPay Plus", provider: "mit", name: "a link", verdict: .passed, skipReason: nil,
            random: [], exchanges: [exchange])
    }

    static func answer(code: String, message: String, url: String) -> String {
        "<P_RESPONSE><cd_response>\(code)</cd_response><nb_response>\(message)</nb_response><nb_url>\(url)</nb_url></P_RESPONSE>"
    }

    static func noise(_ id: String) -> [String] { id == "mit" ? MITProvider().driftNoise : [] }

    @Test("MIT's decrypted answer is compared field by field; its ciphertext, URLs and messages are noise")
    func decryptedFields() {
        let recorded = Self.mitCase(encrypted: "Q0lQSEVSLTE=", read: Self.answer(code: "success", message: "", url: "https://live/a"))
        let same = Self.mitCase(encrypted: "Q0lQSEVSLTI=", read: Self.answer(code: "success", message: "", url: "https://mock/b"))
        #expect(DriftReport.compare(recorded: [recorded], mock: [same], noise: Self.noise).entries.isEmpty)

        let changed = Self.mitCase(encrypted: "Q0lQSEVSLTM=", read: Self.answer(code: "error", message: "Datos incorrectos", url: "https://mock/c"))
        let entries = DriftReport.compare(recorded: [recorded], mock: [changed], noise: Self.noise).entries
        #expect(entries.map { "\($0.operation) \($0.field) \($0.kind) \($0.recorded) \($0.mock)" } == [#"POST /gen body.P_RESPONSE.cd_response value "success" "error""#])

        // Without what the adapter read, two ciphertexts are not compared (they always differ).
        let blind = DriftReport.compare(
            recorded: [Self.mitCase(encrypted: "Q0lQSEVSLTE=", read: nil)], mock: [Self.mitCase(encrypted: "Q0lQSEVSLTM=", read: nil)], noise: Self.noise)
        #expect(blind.entries.isEmpty && blind.exchangesCompared == 1)
    }

    @Test("what the adapter read survives the JSON report and the recording")
    func readBodyRoundTrip() throws {
        let record = Self.mitCase(encrypted: "Q0lQSEVSLTE=", read: Self.answer(code: "success", message: "", url: "https://live/a"))
        let value = JSONReporter.exchange(record.exchanges[0])
        #expect(value["readBody"]?.stringValue == record.exchanges[0].readBody)
    }
}
