import Foundation
import PayCheckCore
import PayCheckProviders
import Synchronization
import Testing

/// A provider context with a fixed clock and fixed random bytes that records what the adapter sends and
/// answers with a canned response.
final class RecordingContext: Sendable {
    /// 2026-01-15T10:00:00-05:00, the seed of the providers.md §1.2 vector.
    static let now = Date(timeIntervalSince1970: 1_768_489_200)
    /// Bytes 0…15; the adapter hex-encodes them into the raw nonce like the PHP SDK.
    static let bytes: [UInt8] = Array(0..<16)
    /// `bin2hex(bytes)`.
    static let rawNonce = "000102030405060708090a0b0c0d0e0f"

    private let state = Mutex<(requests: [HTTPRequestData], secrets: [String])>(([], []))
    private let response: HTTPResponseData

    /// Answers every request with `response`.
    init(response: HTTPResponseData = HTTPResponseData(status: 200, body: Array(#"{"status":{"status":"OK"}}"#.utf8))) {
        self.response = response
    }

    /// Answers with `status` and a JSON `body`.
    convenience init(status: Int, json: String) {
        self.init(response: HTTPResponseData(status: status, headers: [("Content-Type", "application/json")], body: Array(json.utf8)))
    }

    /// The context, with the mock's credentials unless `credentials` is given.
    func context(credentials: [String: String] = PlacetoPayProvider().mockCredentials, controlURL: String? = "http://mock.test") -> ProviderContext {
        let response = self.response
        return ProviderContext(
            baseURL: "http://mock.test/placetopay", controlURL: controlURL, credentials: credentials,
            now: { RecordingContext.now }, randomBytes: { Array(RecordingContext.bytes.prefix($0)) },
            send: { request in
                self.state.withLock { $0.requests.append(request) }
                return response
            },
            addSecret: { secret in self.state.withLock { $0.secrets.append(secret) } })
    }

    /// Every request sent.
    var requests: [HTTPRequestData] { state.withLock { $0.requests } }
    /// Every value registered for redaction.
    var secrets: [String] { state.withLock { $0.secrets } }

    /// The JSON body of the only request sent.
    func body() throws -> [String: Value] {
        let request = try #require(requests.first)
        guard case .object(let members)? = JSONText.parse(request.body) else {
            Issue.record("the body is not a JSON object")
            return [:]
        }
        return members
    }

    /// The `auth` object of the only request sent.
    func auth() throws -> [String: Value] {
        guard case .object(let auth)? = try body()["auth"] else { return [:] }
        return auth
    }
}

/// Runs one `call:` operation of the PlacetoPay adapter.
func perform(
    _ name: String, with parameters: Value = [:], auth: Value? = nil,
    in recording: RecordingContext, credentials: [String: String]? = nil
) async throws -> Observation {
    try await perform(.call, name, with: parameters, auth: auth, in: recording, credentials: credentials)
}

/// Runs one action of the PlacetoPay adapter.
func perform(
    _ kind: ProviderAction.Kind, _ name: String, with parameters: Value = [:], auth: Value? = nil,
    in recording: RecordingContext, credentials: [String: String]? = nil, controlURL: String? = "http://mock.test"
) async throws -> Observation {
    let context =
        credentials.map { recording.context(credentials: $0, controlURL: controlURL) }
        ?? recording.context(controlURL: controlURL)
    return try await ProviderExecutor(provider: PlacetoPayProvider()).perform(
        ProviderActionRequest(kind: kind, name: name, parameters: parameters, auth: auth), context: context)
}

/// Request building and signing with a fixed clock and fixed random bytes (providers.md §1.2, §1.4–§1.8).
@Suite("PlacetoPay adapter: requests and signing")
struct PlacetoPayProviderTests {
    static let payment: Value = [
        "payment": ["reference": "ORDER-1", "description": "Test", "amount": ["currency": "COP", "total": 165000]],
        "returnUrl": "https://merchant.test/return",
    ]

    @Test("createSession posts JSON to /api/session with defaults and an auth object signed per §1.2")
    func createSession() async throws {
        let recording = RecordingContext()
        _ = try await perform("createSession", with: Self.payment, in: recording)
        let request = try #require(recording.requests.first)
        #expect(request.method == "POST")
        #expect(request.url == "http://mock.test/placetopay/api/session")
        #expect(request.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" })
        let body = try recording.body()
        #expect(body["ipAddress"] == "127.0.0.1")
        #expect(body["userAgent"] == "PayCheck")
        #expect(body["returnUrl"] == "https://merchant.test/return")
        #expect(body["payment"] == Self.payment.objectMember("payment"))
        let auth = try recording.auth()
        let nonce = Data(RecordingContext.rawNonce.utf8).base64EncodedString()
        let tranKey = PlacetoPayAuth.tranKey(
            rawNonce: Array(RecordingContext.rawNonce.utf8), seed: "2026-01-15T10:00:00-05:00",
            secretKey: "paycheck-test-secret-key")
        #expect(auth == ["login": "paycheck-test", "nonce": .string(nonce), "seed": "2026-01-15T10:00:00-05:00", "tranKey": .string(tranKey)])
        #expect(recording.secrets == [tranKey])
    }

    @Test("the signer reproduces the providers.md §1.2 vector through the adapter")
    func vector() async throws {
        let recording = RecordingContext()
        _ = try await perform(
            "createSession", with: Self.payment, auth: ["nonce": "paycheck-nonce-1", "secretKey": "s3cr3t-KEY"],
            in: recording)
        let auth = try recording.auth()
        #expect(auth["tranKey"] == "yXvPG2c1cY7/toXlfaeiB7C9yI9Ce6lubRNUAiPv3Jk=")
        #expect(auth["nonce"] == "cGF5Y2hlY2stbm9uY2UtMQ==")
        #expect(auth["seed"] == "2026-01-15T10:00:00-05:00")
        #expect(recording.secrets.contains("s3cr3t-KEY"))
    }

    static let routeCases: [(String, Value, String, [String])] = [
        ("querySession", ["requestId": 42], "/api/session/42", []),
        ("cancelSession", ["requestId": "42"], "/api/session/42/cancel", []),
        ("transaction", ["internalReference": 7, "action": "reverse"], "/api/transaction", ["action", "internalReference"]),
        ("reverse", ["internalReference": 7], "/api/reverse", ["internalReference"]),
        ("collect", ["instrument": ["token": ["token": "t"]]], "/api/collect", ["instrument", "ipAddress", "userAgent"]),
    ]

    @Test("each operation goes to its route with the right body", arguments: routeCases)
    func routes(name: String, parameters: Value, path: String, keys: [String]) async throws {
        let recording = RecordingContext(status: 200, json: #"{"status":{"status":"PENDING","reason":"PT"}}"#)
        _ = try await perform(name, with: parameters, in: recording)
        let request = try #require(recording.requests.first)
        #expect(request.url == "http://mock.test/placetopay" + path)
        #expect(try recording.body().keys.sorted() == (keys + ["auth"]).sorted())
    }

    @Test("a null member is left out of the body, so required fields can be omitted on purpose")
    func nullOmits() async throws {
        let recording = RecordingContext()
        var parameters = Self.payment
        if case .object(var members) = parameters {
            members["ipAddress"] = .null
            members["returnUrl"] = .null
            parameters = .object(members)
        }
        _ = try await perform("createSession", with: parameters, in: recording)
        let body = try recording.body()
        #expect(body["ipAddress"] == nil && body["returnUrl"] == nil)
        #expect(body["userAgent"] != nil)
    }

    static let overrideCases: [(Value, String, String, String?)] = [
        (["secretKey": "other"], "login", "paycheck-test", "other"),
        (["login": "someone-else"], "login", "someone-else", nil),
        (["seedOffset": "-6m"], "seed", "2026-01-15T09:54:00-05:00", nil),
        (["seedOffset": "+10m"], "seed", "2026-01-15T10:10:00-05:00", nil),
        (["seed": "not a date"], "seed", "not a date", nil),
        (["nonce": "paycheck-nonce-1"], "nonce", "cGF5Y2hlY2stbm9uY2UtMQ==", nil),
        (["tranKey": "forged"], "tranKey", "forged", nil),
    ]

    @Test("every auth override changes exactly what it names", arguments: overrideCases)
    func overrides(auth: Value, field: String, expected: String, secret: String?) async throws {
        let recording = RecordingContext()
        _ = try await perform("createSession", with: Self.payment, auth: auth, in: recording)
        let sent = try recording.auth()
        #expect(sent[field] == .string(expected))
        if let secret { #expect(recording.secrets.contains(secret)) }
        // The tranKey always matches what was sent, with the overriding secret when there is one.
        if field != "tranKey", case .string(let nonce)? = sent["nonce"], case .string(let seed)? = sent["seed"] {
            let raw = Array(Data(base64Encoded: nonce) ?? Data())
            let key = PlacetoPayAuth.tranKey(rawNonce: raw, seed: seed, secretKey: secret ?? "paycheck-test-secret-key")
            #expect(sent["tranKey"] == .string(key))
        }
    }

    @Test("algorithm: sha1 signs with the legacy formula (SHA-1 vector of §1.2's inputs)")
    func sha1() async throws {
        let recording = RecordingContext()
        _ = try await perform(
            "createSession", with: Self.payment,
            auth: ["nonce": "paycheck-nonce-1", "secretKey": "s3cr3t-KEY", "algorithm": "sha1"], in: recording)
        #expect(try recording.auth()["tranKey"] == "4GHnNihK7tfrnRObDGB30j2X1Mo=")
    }

    @Test("omit: true sends no auth object; omitFields drops only the named fields")
    func omissions() async throws {
        let none = RecordingContext()
        _ = try await perform("createSession", with: Self.payment, auth: ["omit": true], in: none)
        #expect(try none.body()["auth"] == nil)
        let partial = RecordingContext()
        _ = try await perform("createSession", with: Self.payment, auth: ["omitFields": ["tranKey", "seed"]], in: partial)
        #expect(try partial.auth().keys.sorted() == ["login", "nonce"])
    }

    static let badOverrideCases: [(Value, String)] = [
        (["secret": "x"], "unknown PlacetoPay auth override 'secret'; valid: login, secretKey, seedOffset, seed, nonce, algorithm, omit, omitFields, tranKey"),
        (["SecretKey": "x"], "unknown PlacetoPay auth override 'SecretKey' (did you mean 'secretKey'?)"),
        (["seedOffset": "soon"], "auth override 'seedOffset' must be a duration like -6m or +10m, got 'soon'"),
        (["seed": "x", "seedOffset": "1m"], "auth overrides 'seed' and 'seedOffset' both set the seed; give one of them"),
        (["algorithm": "md5"], "auth override 'algorithm' must be sha256 or sha1, got 'md5'"),
        (["omit": "yes"], "auth override 'omit' must be true or false, got \"yes\""),
        (["omitFields": ["password"]], "auth override 'omitFields' lists fields of the auth object (login, tranKey, nonce, seed), got \"password\""),
        ("sha1", "'auth' must be a mapping of overrides"),
    ]

    @Test("bad overrides and parameters fail with a message naming the fix", arguments: badOverrideCases)
    func badOverrides(auth: Value, message: String) async throws {
        let recording = RecordingContext()
        let error = await #expect(throws: ProviderError.self) {
            try await perform("createSession", with: Self.payment, auth: auth, in: recording)
        }
        #expect(error?.message.hasPrefix(message) == true, "got: \(error?.message ?? "")")
        #expect(recording.requests.isEmpty)
    }

    @Test("session routes need a requestId; 'with' may not set auth; credentials must be present")
    func badCalls() async throws {
        let recording = RecordingContext()
        await #expect(throws: ProviderError.self) { try await perform("querySession", in: recording) }
        await #expect(throws: ProviderError.self) {
            try await perform("createSession", with: ["auth": ["login": "x"]], in: recording)
        }
        let missing = await #expect(throws: ProviderError.self) {
            try await perform("createSession", with: Self.payment, in: recording, credentials: [:])
        }
        #expect(missing?.message.contains("PAYCHECK_PLACETOPAY_SECRET_KEY") == true)
        await #expect(throws: ProviderError.self) {
            try await perform("verifyNotification", auth: ["omit": true], in: recording)
        }
        #expect(recording.requests.isEmpty)
    }

    @Test("the description lists every action per step kind, and credentials name their variables")
    func description() {
        let provider = PlacetoPayProvider()
        #expect(
            provider.description.actions[.call] == [
                "createSession", "querySession", "cancelSession", "transaction", "reverse", "collect",
                "invalidateToken", "gatewayToken", "gatewayInformation", "verifyNotification", "signNotification",
            ])
        #expect(provider.description.spec(.call, "createSession")?.authKeys == PlacetoPayAuthOverrides.keys)
        #expect(provider.description.spec(.payer, "pay")?.parameters?.contains("card") == true)
        #expect(provider.description.actions[.payer] == ["pay", "cancel", "abandon"])
        #expect(provider.description.actions[.mock] == ["site", "notifications", "notify", "forge"])
        #expect(provider.description.actions[.redirect] == ["return", "cancel"])
        #expect(provider.credentialFields.map(\.environmentVariable) == ["PAYCHECK_PLACETOPAY_LOGIN", "PAYCHECK_PLACETOPAY_SECRET_KEY"])
        #expect(provider.credentialFields.map(\.secret) == [false, true])
        #expect(provider.sandboxBaseURL == "https://checkout-test.placetopay.com")
        #expect(ProviderRegistry([provider])["placetopay"] != nil)
    }
}

extension Value {
    /// The member `key` of an object, for tests.
    func objectMember(_ key: String) -> Value? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
