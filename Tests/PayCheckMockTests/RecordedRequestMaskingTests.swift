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
        arguments: [
            #"{"auth":{"tranKey":"s3cr3t-value"}}"#, #"{"auth":{"TRANKEY":"s3cr3t-value"}}"#,
            #"{"auth":{"tran\u004bey":"s3cr3t-value"}}"#, "{\"auth\":{\"tran\u{212A}ey\":\"s3cr3t-value\"}}",
        ])
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

    @Test("the journal keeps a record as received and hands it out only masked, card numbers included")
    func journalMasksOnRead() {
        let journal = RequestJournal()
        var record = Self.record(#"{"auth":{"tranKey":"s3cr3t-value"},"card":"4111111111111111"}"#)
        record.headers.append(.init(name: "Secret", value: "header-secret"))
        journal.record(record, secrets: Self.names)
        journal.record(Self.record(#"{"card":"5500000000000004"}"#))
        let entries = journal.entries()
        let text = entries.map { "\($0.body) \($0.headers) \($0.answer?.body ?? "")" }.joined()
        for secret in ["s3cr3t-value", "header-secret", "4111111111111111", "5500000000000004"] {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect(entries.first?.body.contains("1111") == true)
        #expect(journal.entries(.init(pathPrefix: "/api")).count == 2)
    }
}
