import Foundation
import PayCheckCore
import Testing

@testable import PayCheckMock

@Suite("The journal masks secret members however they are spelled, and keeps other bodies as received")
struct RecordedRequestMaskingTests {
    static let names: Set<String> = ["trankey", "secret"]

    static func record(_ body: String, answer: String = #"{"status":"OK"}"#) -> RecordedRequest {
        var record = RecordedRequest(
            method: "POST", path: "/api/session", query: "", headers: [.init(name: "Content-Type", value: "application/json")],
            body: Array(body.utf8), receivedAt: Date(timeIntervalSince1970: 0))
        record.answer = .init(status: 200, contentType: "application/json", body: answer)
        return record
    }

    @Test(
        "a secret member is masked as written, in capitals, through a \\u escape and with the Kelvin sign",
        arguments: [#"{"auth":{"tranKey":"s3cr3t-value"}}"#, #"{"auth":{"TRANKEY":"s3cr3t-value"}}"#,
                    #"{"auth":{"tran\u004bey":"s3cr3t-value"}}"#, "{\"auth\":{\"tran\u{212A}ey\":\"s3cr3t-value\"}}"])
    func masked(_ body: String) {
        let masked = Self.record(body).masking(Self.names)
        #expect(!masked.body.contains("s3cr3t-value"), "\(masked.body)")
        #expect(masked.body.contains(RecordedRequest.maskedValue), "\(masked.body)")
    }

    @Test("a body and an answer without a secret member stay byte for byte as received")
    func untouched() {
        let body = #"{ "b": 1, "a": "tranKe y", "amount": {"total": 1.50} }"#
        let answer = #"{ "z": "secretary" , "a": 1 }"#
        let masked = Self.record(body, answer: answer).masking(Self.names)
        #expect(masked.body == body)
        #expect(masked.answer?.body == answer)
        #expect(!RecordedRequest.mayName(#"{"a":"b"}"#, Self.names))
        #expect(RecordedRequest.mayName(#"{"A":"SECRET"}"#, Self.names))
        #expect(RecordedRequest.mayName(#"{"a":"\n"}"#, Self.names))
    }

    @Test("an answer's secret member is masked too")
    func answerMasked() {
        let masked = Self.record(#"{"a":1}"#, answer: #"{"secret":"hidden-one"}"#).masking(Self.names)
        #expect(masked.answer?.body == #"{"secret":"[redacted]"}"#)
    }
}
