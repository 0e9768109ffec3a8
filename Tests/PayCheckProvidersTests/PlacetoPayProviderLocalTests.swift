import PayCheckCore
import PayCheckProviders
import Testing

/// Local operations (notification signatures §1.9, redirects §1.11) and mock-control requests.
@Suite("PlacetoPay adapter: notifications, redirects, mock control")
struct PlacetoPayProviderLocalTests {
    /// The §1.9 vector as a received notification.
    static func notification(status: String = "APPROVED", signature: String = "sha256:4daacc719eace8e309af6f90568cda52e11324c5f249e7a5a741bdaa8611ae67") -> Value {
        [
            "status": ["status": .string(status), "reason": "00", "message": "ok", "date": "2019-01-01T12:00:00-05:00"],
            "requestId": 1234, "reference": "ORDER-1", "signature": .string(signature),
        ]
    }

    @Test("verifyNotification accepts the §1.9 SHA-256 vector and never echoes the secret")
    func valid() async throws {
        let recording = RecordingContext()
        let observation = try await perform(
            "verifyNotification", with: ["notification": Self.notification(), "secretKey": "ABCD1234"], in: recording)
        #expect(observation.status == 200)
        #expect(observation.body == ["valid": true, "algorithm": "sha256"])
        #expect(!observation.rawBody.contains("ABCD1234"))
        #expect(recording.secrets.contains("ABCD1234"))
        #expect(recording.requests.isEmpty)
    }

    @Test("a tampered notification (status changed) fails verification and shows the expected signature")
    func tampered() async throws {
        let observation = try await perform(
            "verifyNotification", with: ["notification": Self.notification(status: "REJECTED"), "secretKey": "ABCD1234"],
            in: RecordingContext())
        #expect(observation.body?.objectMember("valid") == false)
        let expected = PlacetoPayNotificationSignature.sign(
            requestId: 1234, status: "REJECTED", date: "2019-01-01T12:00:00-05:00", secretKey: "ABCD1234")
        #expect(observation.body?.objectMember("expected") == .string(expected))
    }

    @Test("a legacy SHA-1 signature is recognised by its form; a forced algorithm refuses a downgrade")
    func sha1() async throws {
        let legacy = Self.notification(signature: "f4639999fc5d4293c43d299608d0ae77df024a33")
        let observed = try await perform("verifyNotification", with: ["notification": legacy, "secretKey": "ABCD1234"], in: RecordingContext())
        #expect(observed.body == ["valid": true, "algorithm": "sha1"])
        let forced = try await perform(
            "verifyNotification", with: ["notification": legacy, "secretKey": "ABCD1234", "algorithm": "sha256"], in: RecordingContext())
        #expect(forced.body?.objectMember("valid") == false)
    }

    @Test("the notification may be given as its JSON text; the secret defaults to the credentials")
    func textAndDefaultSecret() async throws {
        let signature = PlacetoPayNotificationSignature.sign(
            requestId: 9, status: "REJECTED", date: "2026-01-15T10:00:00-05:00", secretKey: "paycheck-test-secret-key")
        let text = #"{"status":{"status":"REJECTED","reason":"?C","date":"2026-01-15T10:00:00-05:00"},"requestId":9,"reference":"R","signature":"\#(signature)"}"#
        let observation = try await perform("verifyNotification", with: ["notification": .string(text)], in: RecordingContext())
        #expect(observation.body?.objectMember("valid") == true)
    }

    @Test("verifyNotification without a signature or notification says what is missing")
    func missing() async throws {
        var unsigned = Self.notification()
        if case .object(var members) = unsigned {
            members["signature"] = nil
            unsigned = .object(members)
        }
        let noSignature = await #expect(throws: ProviderError.self) {
            try await perform("verifyNotification", with: ["notification": unsigned], in: RecordingContext())
        }
        #expect(noSignature?.message == "the notification has no 'signature'")
        await #expect(throws: ProviderError.self) { try await perform("verifyNotification", in: RecordingContext()) }
    }

    @Test("signNotification reproduces the §1.9 vectors from the fields or a notification")
    func sign() async throws {
        let fields: Value = ["requestId": 1234, "status": "APPROVED", "date": "2019-01-01T12:00:00-05:00", "secretKey": "ABCD1234"]
        let sha256 = try await perform("signNotification", with: fields, in: RecordingContext())
        #expect(sha256.body?.objectMember("signature") == "sha256:4daacc719eace8e309af6f90568cda52e11324c5f249e7a5a741bdaa8611ae67")
        let sha1 = try await perform(
            "signNotification", with: ["notification": Self.notification(), "secretKey": "ABCD1234", "algorithm": "sha1"],
            in: RecordingContext())
        #expect(sha1.body?.objectMember("signature") == "f4639999fc5d4293c43d299608d0ae77df024a33")
    }

    @Test("redirect: return and cancel carry no trustworthy status, so they map to pending (§1.11)", arguments: ["return", "cancel"])
    func redirect(name: String) async throws {
        let observation = try await perform(.redirect, name, with: ["url": "https://merchant.test/return?x=1", "requestId": 5], in: RecordingContext())
        #expect(observation.outcome == .pending)
        #expect(observation.body?.objectMember("url") == "https://merchant.test/return?x=1")
        #expect(observation.body?.objectMember("requestId") == 5)
        await #expect(throws: ProviderError.self) { try await perform(.redirect, name, in: RecordingContext()) }
    }

    /// One control action and the request it must make.
    struct ControlCase: Sendable, CustomTestStringConvertible {
        var kind: ProviderAction.Kind
        var name: String
        var parameters: Value
        var method: String
        var path: String
        var testDescription: String { "\(kind.rawValue): \(name)" }
    }

    static let controlCases: [ControlCase] = [
        ControlCase(kind: .payer, name: "pay", parameters: ["requestId": 3, "card": "4110760000000081"], method: "POST", path: "/__paycheck/placetopay/payer/pay"),
        ControlCase(kind: .payer, name: "cancel", parameters: ["requestId": 3], method: "POST", path: "/__paycheck/placetopay/payer/cancel"),
        ControlCase(kind: .payer, name: "abandon", parameters: ["requestId": 3], method: "POST", path: "/__paycheck/placetopay/payer/abandon"),
        ControlCase(
            kind: .mock, name: "site", parameters: ["login": "site a", "secretKey": "s3cr3t-site", "status": "inactive"], method: "POST", path: "/__paycheck/placetopay/mock/site"),
        ControlCase(kind: .mock, name: "notifications", parameters: ["requestId": 3], method: "POST", path: "/__paycheck/placetopay/mock/notifications"),
        ControlCase(kind: .mock, name: "notify", parameters: ["requestId": 3, "url": "http://merchant.test/n"], method: "POST", path: "/__paycheck/placetopay/mock/notify"),
    ]

    @Test("payer and mock actions go to the control API", arguments: controlCases)
    func control(_ testCase: ControlCase) async throws {
        let (kind, name, parameters, method, path) = (testCase.kind, testCase.name, testCase.parameters, testCase.method, testCase.path)
        let recording = RecordingContext(status: 200, json: #"{"ok":true}"#)
        let observation = try await perform(kind, name, with: parameters, in: recording)
        #expect(observation.status == 200 && observation.outcome == nil)
        let request = try #require(recording.requests.first)
        #expect(request.method == method)
        #expect(request.url == "http://mock.test" + path)
        if name == "site" {
            #expect(try recording.body() == ["login": "site a", "secretKey": "s3cr3t-site", "status": "inactive"])
            #expect(recording.secrets == ["s3cr3t-site"])
        }
    }

    @Test("a payer answer maps the attempt's transaction, or the session when there is none")
    func payerMapping() async throws {
        let pay = RecordingContext(
            status: 200,
            json: #"{"requestId":3,"session":{"status":"PENDING","reason":"PT"},"transaction":{"status":{"status":"PENDING_CONFIRMATION","reason":"PT"}}}"#)
        let paid = try await perform(.payer, "pay", with: ["requestId": 3, "card": "4110760000000081"], in: pay)
        #expect(paid.outcome == .pending && paid.nativeState == "PENDING_CONFIRMATION")
        let cancel = RecordingContext(status: 200, json: #"{"requestId":3,"session":{"status":"REJECTED","reason":"?C"}}"#)
        let cancelled = try await perform(.payer, "cancel", with: ["requestId": 3], in: cancel)
        #expect(cancelled.outcome == .canceled && cancelled.nativeState == "REJECTED/?C")
        let refused = RecordingContext(status: 409, json: #"{"error":"session 3 is already final"}"#)
        let conflict = try await perform(.payer, "pay", with: ["requestId": 3, "card": "4110760000000081"], in: refused)
        #expect(conflict.status == 409 && conflict.outcome == nil)
        let site = RecordingContext(status: 200, json: #"{"login":"x","status":"active"}"#)
        #expect(try await perform(.mock, "site", with: ["login": "x"], in: site).outcome == nil)
    }

    @Test("control actions need a mock target, a requestId or a login")
    func controlErrors() async throws {
        let noControl = await #expect(throws: ProviderError.self) {
            try await perform(.payer, "pay", with: ["requestId": 1], in: RecordingContext(), controlURL: nil)
        }
        #expect(noControl?.message.contains("requires: [mock]") == true)
        await #expect(throws: ProviderError.self) { try await perform(.payer, "pay", with: ["card": "4"], in: RecordingContext()) }
        await #expect(throws: ProviderError.self) { try await perform(.mock, "site", with: ["secretKey": "x"], in: RecordingContext()) }
        await #expect(throws: ProviderError.self) { try await perform(.mock, "clockwork", in: RecordingContext()) }
        await #expect(throws: ProviderError.self) { try await perform(.deeplink, "open", in: RecordingContext()) }
    }
}
