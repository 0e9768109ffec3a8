import Foundation
import PayCheckCore
import PayCheckProviders
import Testing

/// The Suite mCommerce operations of the MIT adapter (providers.md §5.4–§5.5, §5.11 B1): the SDK's client-side checks,
/// the `pgs` envelope, the reading of `mpgs` answers, and S001/S002.
@Suite("MIT Suite mCommerce adapter")
struct MITSuiteTests {
    static let credentials = MITProvider().mockCredentials
    static var key: String { credentials["key"] ?? "" }

    func perform(_ name: String, _ parameters: Value, auth: Value? = nil, in recording: RecordingContext) async throws -> Observation {
        try await ProviderExecutor(provider: MITProvider()).perform(
            ProviderActionRequest(kind: .call, name: name, parameters: parameters, auth: auth), context: recording.context(credentials: Self.credentials))
    }

    @Test(
        "every check runs and the last failing one wins",
        arguments: [
            ([("A001", false), ("A003", false), ("A005", true)], "A003"),
            ([("T001", true), ("T009", true)], nil),
            ([("C001", false), ("C002", true), ("C003", true)], "C001"),
        ] as [([(String, Bool)], String?)])
    func lastFailing(results: [(String, Bool)], expected: String?) {
        #expect(MITSuiteRules.lastFailing(results.map { (code: $0.0, passes: $0.1) }) == expected)
    }

    @Test("the SDK's own forms: a 16-character token, an amount with at most two decimals, MXN or USD, and Luhn")
    func forms() {
        #expect(MITSuiteRules.sdkAccepts("token", "PCTK000000000001"))
        #expect(!MITSuiteRules.sdkAccepts("token", "PCTK0001"))
        #expect(MITSuiteRules.sdkAccepts("amount", "1500") && MITSuiteRules.sdkAccepts("amount", "20.5") && MITSuiteRules.sdkAccepts("amount", "0.01"))
        #expect(!MITSuiteRules.sdkAccepts("amount", "1,500.00") && !MITSuiteRules.sdkAccepts("amount", "1.505"))
        #expect(MITSuiteRules.sdkAccepts("currency", "USD") && !MITSuiteRules.sdkAccepts("currency", "EUR"))
        #expect(!MITSuiteRules.sdkAccepts("branch", "") && !MITSuiteRules.sdkAccepts("branch", nil))
        #expect(MITSuiteRules.luhn("4111111111111111") && !MITSuiteRules.luhn("4111111111111112") && !MITSuiteRules.luhn("4111"))
    }

    @Test("a missing field is refused by the adapter with its code, and nothing is sent")
    func clientSide() async throws {
        let recording = RecordingContext()
        let observation = try await perform("authenticate", ["threeDS": ["branch": "", "user": .null]], in: recording)
        #expect(recording.requests.isEmpty)
        #expect(observation.error == ObservedError(errorClass: .A, code: "A003", message: "Usuario invalido"))
        #expect(observation.outcome == .error)
        #expect(observation.body?["sent"] == .bool(false))
        let missing = try await perform("payWithToken", ["tokenization": .null], in: recording)
        #expect(missing.error?.code == "T012" && recording.requests.isEmpty)
    }

    @Test("a key the cipher refuses is S002 before anything is sent")
    func keyException() async throws {
        let recording = RecordingContext()
        let observation = try await perform("initController", [:], auth: ["key": "XYZ"], in: recording)
        #expect(recording.requests.isEmpty)
        #expect(observation.error == ObservedError(errorClass: .S, code: "S002", message: "Excepción de llave"))
    }

    @Test("the payload is JSON sealed in <pgs> with data0; beans default to the target's values; secrets are registered")
    func envelope() async throws {
        let recording = RecordingContext(response: HTTPResponseData(status: 200, body: Array("<mpgs><response>false</response><cdError>T013</cdError><nbError/></mpgs>".utf8)))
        let observation = try await perform(
            "payWithToken", ["tokenization": ["token": "PCTK000000000001", "amount": "10.00", "reference": "R-1"], "card": ["number": "4111111111111111"]],
            in: recording)
        let request = try #require(recording.requests.first)
        #expect(request.url == "http://mock.test/placetopay/mcommerce/payWithToken")
        let form = Dictionary(FormText.decodePairs(String(decoding: request.body, as: UTF8.self)).map { ($0.name, $0.value) }) { $1 }
        let xml = try #require(form["xml"])
        #expect(MITXML.inner("data0", in: xml) == "SNDBX123")
        #expect(!xml.contains("SECRETO") && !xml.contains("4111111111111111"))
        let data = try #require(MITXML.inner("data", in: xml))
        let payload = try #require(JSONText.parse(try MITCipher.decrypt(data, keyHex: Self.key)))
        #expect(payload["paymentData"]?["branch"] == "01SNBXBRNCH")
        #expect(payload["paymentData"]?["password"] == "SECRETO")
        #expect(payload["3dsData"]?["authKey"] == "SNBX3DSAUTHKEY2026")
        #expect(payload["3dsData"]?["reference"] == "R-1")
        #expect(payload["environment"] == "SANDBOX")
        #expect(recording.secrets.contains("SNBX3DSAUTHKEY2026") && recording.secrets.contains("4111111111111111"))
        // A refusal passes the server's code through as the SuiteError (§5.11 B1), with the catalog's text.
        #expect(observation.error == ObservedError(errorClass: .T, code: "T013", message: "La tarjeta proporcionada no corresponde con el token"))
        #expect(observation.outcome == .error)
    }

    @Test("an accepted answer carries the encrypted result, decrypted with the key and mapped (§5.8)")
    func accepted() async throws {
        let inner = "<CENTEROFPAYMENTS><reference>R-1</reference><response>denied</response><auth/></CENTEROFPAYMENTS>"
        let sealed = try MITCipher.encrypt(inner, keyHex: Self.key)
        let recording = RecordingContext(
            response: HTTPResponseData(status: 200, body: Array("<mpgs><response>true</response><nbResponse>\(sealed)</nbResponse><cdError/><nbError/></mpgs>".utf8)))
        let observation = try await perform("payWithToken", ["tokenization": ["token": "PCTK000000000001", "amount": "10", "reference": "R-1"]], in: recording)
        #expect(observation.outcome == .declined)
        #expect(observation.body?["result"]?["reference"] == "R-1")
        #expect(observation.error == nil)
    }

    @Test("an empty answer is S001, an answer that is not <mpgs> S003")
    func unreadable() async throws {
        let empty = try await perform("initController", [:], in: RecordingContext(response: HTTPResponseData(status: 502, body: [])))
        #expect(empty.error?.code == "S001" && empty.status == 502)
        let clear = try await perform("initController", [:], in: RecordingContext(response: HTTPResponseData(status: 200, body: Array("Error: data0 desconocido".utf8))))
        #expect(clear.error?.code == "S003")
    }

    struct Unreachable: Error {}

    @Test("a request without an answer is S001 for the Suite operations, and stays a transport error for /gen")
    func connection() async throws {
        let context = ProviderContext(
            baseURL: "http://mock.test/mit", controlURL: nil, credentials: Self.credentials, now: { RecordingContext.now },
            randomBytes: { Array(repeating: 7, count: $0) }, send: { _ in throw Unreachable() }, addSecret: { _ in })
        let executor = ProviderExecutor(provider: MITProvider())
        let observation = try await executor.perform(ProviderActionRequest(kind: .call, name: "initController", parameters: [:], auth: nil), context: context)
        #expect(observation.error?.code == "S001" && observation.error?.errorClass == .S)
        await #expect(throws: Unreachable.self) {
            try await executor.perform(
                ProviderActionRequest(kind: .call, name: "generateLink", parameters: ["reference": "R", "amount": "1.00"], auth: nil), context: context)
        }
    }

    @Test("a bean field the SDK does not have is an invalid step with a suggestion")
    func unknownField() async throws {
        await #expect(throws: ProviderError.self) {
            try await perform("authenticate", ["threeDS": ["brnch": "X"]], in: RecordingContext())
        }
        do {
            _ = try await perform("authenticate", ["threeDS": ["brnch": "X"]], in: RecordingContext())
        } catch {
            #expect("\(error)".contains("did you mean 'branch'"))
        }
    }
}
