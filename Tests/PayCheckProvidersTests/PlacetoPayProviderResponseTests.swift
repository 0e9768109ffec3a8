import PayCheckCore
import PayCheckProviders
import Testing

/// Reading answers: outcome mapping rows (providers.md §1.11, §6) and error extraction (§1.3).
@Suite("PlacetoPay adapter: outcomes and errors")
struct PlacetoPayProviderResponseTests {
    /// A session body with this status.
    static func session(_ status: String, _ reason: String) -> String {
        #"{"requestId":1,"status":{"status":"\#(status)","reason":"\#(reason)","message":"m","date":"2026-01-15T10:00:00-05:00"},"request":{},"payment":null}"#
    }

    @Test(
        "every mapping row maps a queried session to its outcome; nativeState names the row",
        arguments: [
            ("APPROVED", "00", "succeeded", "APPROVED"),
            ("PENDING", "PT", "pending", "PENDING"),
            ("APPROVED_PARTIAL", "P0", "pending", "APPROVED_PARTIAL"),
            ("REJECTED", "?C", "canceled", "REJECTED/?C"),
            ("REJECTED", "MC", "canceled", "REJECTED/MC"),
            ("REJECTED", "EX", "expired", "REJECTED/EX"),
            ("REJECTED", "XN", "declined", "REJECTED"),
            ("REJECTED", "05", "declined", "REJECTED"),
            ("PARTIAL_EXPIRED", "PX", "expired", "PARTIAL_EXPIRED"),
            ("PENDING_CONFIRMATION", "PT", "pending", "PENDING_CONFIRMATION"),
        ])
    func sessionRows(status: String, reason: String, outcome: String, row: String) async throws {
        let recording = RecordingContext(status: 200, json: Self.session(status, reason))
        let observation = try await perform("querySession", with: ["requestId": 1], in: recording)
        #expect(observation.outcome?.rawValue == outcome)
        #expect(observation.nativeState == row)
        #expect(observation.error == nil)
        #expect(observation.status == 200)
        #expect(observation.body?.objectMember("requestId") == 1)
    }

    @Test("a numeric or missing reason still maps")
    func numericReason() async throws {
        let numeric = RecordingContext(status: 200, json: #"{"status":{"status":"REJECTED","reason":5},"requestId":1}"#)
        let observed = try await perform("querySession", with: ["requestId": 1], in: numeric)
        #expect(observed.nativeState == "REJECTED" && observed.outcome == .declined)
        let none = RecordingContext(status: 200, json: #"{"status":{"status":"APPROVED","reason":null},"requestId":1}"#)
        let approved = try await perform("querySession", with: ["requestId": 1], in: none)
        #expect(approved.nativeState == "APPROVED" && approved.outcome == .succeeded)
    }

    @Test("cancelSession maps the returned session, not its OK status (§1.6)")
    func cancelShape() async throws {
        let recording = RecordingContext(status: 200, json: #"{"status":{"status":"OK","reason":"00"},"session":\#(Self.session("REJECTED", "MC"))}"#)
        let observation = try await perform("cancelSession", with: ["requestId": 1], in: recording)
        #expect(observation.outcome == .canceled && observation.nativeState == "REJECTED/MC")
    }

    @Test(
        "transaction and reverse map payment.status (§1.7)",
        arguments: [
            ("transaction", "REJECTED", "?C", "canceled", "REJECTED/?C"),
            ("transaction", "PENDING_CONFIRMATION", "PT", "pending", "PENDING_CONFIRMATION"),
            ("transaction", "APPROVED", "00", "succeeded", "APPROVED"),
            ("reverse", "APPROVED", "00", "succeeded", "APPROVED"),
            ("reverse", "REJECTED", "05", "declined", "REJECTED"),
        ])
    func transactionShape(operation: String, status: String, reason: String, outcome: String, row: String) async throws {
        let json = #"{"status":{"status":"OK","reason":"00"},"payment":{"status":{"status":"\#(status)","reason":"\#(reason)"},"internalReference":7}}"#
        let parameters: Value = operation == "reverse" ? ["internalReference": 7] : ["internalReference": 7, "action": "cancel"]
        let observation = try await perform(operation, with: parameters, in: RecordingContext(status: 200, json: json))
        #expect(observation.outcome?.rawValue == outcome)
        #expect(observation.nativeState == row)
    }

    @Test("createSession's OK is not a session state: no outcome")
    func createOK() async throws {
        let json = #"{"status":{"status":"OK","reason":"PC"},"requestId":1,"processUrl":"http://x/session/1/ab"}"#
        let observation = try await perform("createSession", with: [:], in: RecordingContext(status: 200, json: json))
        #expect(observation.outcome == nil && observation.nativeState == nil && observation.error == nil)
    }

    @Test("an unmapped state is a conformance failure naming the state and the table's states")
    func unmapped() async throws {
        let recording = RecordingContext(status: 200, json: Self.session("REFUNDED", "00"))
        let error = await #expect(throws: ProviderError.self) {
            try await perform("querySession", with: ["requestId": 1], in: recording)
        }
        #expect(error?.message.hasPrefix("unmapped placetopay state 'REFUNDED/00'") == true, "\(error?.message ?? "")")
        guard case .nonConformance(let expected)? = error?.kind else {
            Issue.record("an unmapped state must be a conformance failure, got \(String(describing: error?.kind))")
            return
        }
        #expect(expected.contains("APPROVED") && expected.contains("PENDING"))
    }

    @Test(
        "a 401's code is the number ending its message, in English and Spanish",
        arguments: [
            ("Authentication failed 102", "102"),
            ("Autenticación fallida 103", "103"),
            ("Authentication failed 100 ", "100"),
            ("Autenticación fallida 10001", "10001"),
        ])
    func authCodes(message: String, code: String) async throws {
        let json = #"{"status":{"status":"FAILED","reason":401,"message":"\#(message)","date":"2026-01-15T10:00:00-05:00"}}"#
        let observation = try await perform("createSession", with: [:], in: RecordingContext(status: 401, json: json))
        #expect(observation.error?["class"] == "A")
        #expect(observation.error?["code"] == code)
        #expect(observation.error?["message"] == message)
        #expect(observation.outcome == .error && observation.nativeState == "FAILED")
    }

    @Test(
        "other envelopes take reason as the code, with the catalog's class",
        arguments: [
            ("querySession", 404, "request_not_valid", "P"),
            ("cancelSession", 400, "action_not_allowed", "P"),
            ("createSession", 404, "NA", "C"),
            ("transaction", 400, "transaction_request_error", "P"),
            ("transaction", 400, "request_not_valid", "P"),
            ("collect", 400, "XN", "T"),
            ("createSession", 400, "BR", "P"),
            ("querySession", 401, "unauthorized", "A"),
        ])
    func envelopes(operation: String, status: Int, reason: String, errorClass: String) async throws {
        let json = #"{"status":{"status":"FAILED","reason":"\#(reason)","message":"no","date":"2026-01-15T10:00:00-05:00"}}"#
        let parameters: Value = ["querySession", "cancelSession"].contains(operation) ? ["requestId": 1] : [:]
        let observation = try await perform(operation, with: parameters, in: RecordingContext(status: status, json: json))
        #expect(observation.error == ObservedError(errorClass: ErrorClass(rawValue: errorClass) ?? .S, code: reason, message: "no"))
        #expect(observation.outcome == .error)
    }

    @Test("a transaction processed but failed (200, BR) is an S-class error with the payment's state")
    func processedButFailed() async throws {
        let json = #"{"status":{"status":"FAILED","reason":"BR","message":"The request could not be processed"},"payment":{"status":{"status":"FAILED","reason":"BR"}}}"#
        let observation = try await perform("transaction", with: ["internalReference": 1, "action": "reverse"], in: RecordingContext(status: 200, json: json))
        #expect(observation.error?["class"] == "S" && observation.error?["code"] == "BR")
        #expect(observation.outcome == .error && observation.nativeState == "FAILED")
    }

    @Test("a code the catalog does not know is a conformance failure")
    func unknownCode() async throws {
        let json = #"{"status":{"status":"FAILED","reason":"ZZ","message":"odd"}}"#
        let error = await #expect(throws: ProviderError.self) {
            try await perform("createSession", with: [:], in: RecordingContext(status: 400, json: json))
        }
        #expect(error?.message.contains("code 'ZZ'") == true)
        #expect(error?.kind == .nonConformance(expected: "a code of the error catalog (providers.md §1.3)"))
    }

    @Test("a 502 with a body that is not JSON is observed as text, an S-class service failure without outcome")
    func notJSON() async throws {
        let recording = RecordingContext(response: HTTPResponseData(status: 502, body: Array("<html>bad gateway</html>".utf8)))
        let observation = try await perform("querySession", with: ["requestId": 1], in: recording)
        #expect(observation.status == 502 && observation.outcome == nil)
        #expect(observation.error == ObservedError(errorClass: .S, code: "502", message: "the service answered 502"))
        #expect(observation.rawBody == "<html>bad gateway</html>")
    }

    @Test("the mapping table and catalog cover providers.md §1.3 and §1.11")
    func tables() {
        let provider = PlacetoPayProvider()
        for code in ["100", "101", "102", "103", "104", "105", "106", "107", "200", "10001"] {
            #expect(provider.errorCatalog.entry(code)?.errorClass == .A)
            #expect(provider.errorCatalog.entry(code)?.httpStatus == 401)
        }
        #expect(provider.outcomeMapping.rule(state: "REJECTED", reason: "?C")?.outcome == .canceled)
        #expect(provider.outcomeMapping.rule(state: "REJECTED", reason: "XN")?.outcome == .declined)
        #expect(provider.outcomeMapping.rule(state: "OK", reason: nil) == nil)
    }
}
