import Foundation
import Testing

@testable import PayCheckCore

/// Inputs on which the fast scanner must decide (plain RFC 8259 JSON).
private let plainJSON: [String] = [
    "null", "true", "false", "0", "-0", "165000", "-42", "9007199254740993", "9223372036854775807",
    "9223372036854775808", "12345678901234567890", "1.5", "-0.25", "1e3", "1E-3", "2.5e+10", "165000.0",
    #""""#, #""plain""#, #""tab\tnew\nline""#, #""quote \" slash \/ back \\""#, #""\u00e9\u4e2d""#,
    #""é 中 🎉""#, "[]", "{}", "[1,[2,[3]]]", #"{"a":1,"b":[true,null,"x"],"c":{"d":-1.5}}"#,
    " \n\t{ \"spaced\" : [ 1 , 2 ] } \r\n",
]

/// Valid JSON the scanner leaves to `JSONDecoder`, with the reason.
private let decoderCorners: [(String, String)] = [
    (#"{"a":1,"a":2}"#, "duplicate key"),
    (#""\ud83c\udf89""#, "surrogate pair escape"),
    ("1e-320", "subnormal number"),
    (String(repeating: "[", count: 70) + String(repeating: "]", count: 70), "nesting deeper than 64"),
]

/// Number literals and the value they parse to.
private let numberLiterals: [(String, Value)] = [
    ("165000", .int(165_000)), ("-0", .int(0)), ("9223372036854775807", .int(.max)),
    ("9223372036854775808", .double(9_223_372_036_854_775_808)), ("165000.0", .double(165_000)),
    ("1e3", .double(1000)), ("0.1", .double(0.1)),
]

/// Strings and their JSON literal.
private let stringLiterals: [(String, String)] = [
    ("plain é 中", #""plain é 中""#), ("q\"b\\", #""q\"b\\""#), ("\n\r\t", #""\n\r\t""#),
    ("\u{1}\u{1F}", #""\u0001\u001f""#), ("/", #""/""#),
]

@Suite("JSON text: fast scanner, JSONDecoder fallback and writer")
struct JSONTextTests {
    /// Scans `text` with the fast scanner alone.
    private func scan(_ text: String) -> Value? {
        Array(text.utf8).withUnsafeBufferPointer { JSONScanner.scan($0) }
    }

    @Test("the fast scanner and JSONDecoder agree on plain JSON", arguments: plainJSON)
    func agreement(_ text: String) throws {
        let fast = try #require(scan(text), "the scanner refused plain JSON")
        let reference = try #require(JSONText.decode(Array(text.utf8)))
        #expect(fast.matches(reference), "\(fast) vs \(reference)")
        #expect(fast.typeName == reference.typeName)
        #expect(JSONText.encode(fast) == JSONText.encode(reference))
        #expect(JSONText.parse(text) == fast)
    }

    @Test(
        "the scanner refuses invalid JSON and the result is JSONDecoder's",
        arguments: [
            "", " ", "nul", "tru", "01", "1.", ".5", "-", "+1", "1e", "[1,]", "{\"a\" 1}", "{'a':1}", "\"open",
            "\"ctl\u{01}\"", "\"bad \\x escape\"", "[1 2]", "{\"a\":1,}", "NaN", "Infinity", "1 2", "\u{FEFF}1",
        ])
    func invalid(_ text: String) {
        #expect(scan(text) == nil)
        #expect(JSONText.parse(text) == JSONText.decode(Array(text.utf8)))
    }

    @Test("corner cases fall back to JSONDecoder", arguments: decoderCorners)
    func corners(_ text: String, _ reason: String) throws {
        #expect(scan(text) == nil, "the scanner must leave the \(reason) to JSONDecoder")
        #expect(JSONText.parse(text) == JSONText.decode(Array(text.utf8)))
    }

    @Test("invalid UTF-8 inside a string is refused by the scanner")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        #expect(bytes.withUnsafeBufferPointer { JSONScanner.scan($0) } == nil)
    }

    @Test("integral literals that fit are .int, everything else .double", arguments: numberLiterals)
    func numbers(_ text: String, _ expected: Value) {
        #expect(JSONText.parse(text) == expected)
    }

    @Test("an amount echoed back keeps its numeric form")
    func amountEcho() throws {
        let body = try #require(JSONText.parse(#"{"amount":{"total":165000,"currency":"COP"},"tax":1.5}"#))
        #expect(JSONText.encode(body) == #"{"amount":{"currency":"COP","total":165000},"tax":1.5}"#)
    }

    @Test("strings are escaped as RFC 8259 requires, plain ones written whole", arguments: stringLiterals)
    func escapes(_ text: String, _ expected: String) {
        var bytes: [UInt8] = []
        JSONText.writeString(text, into: &bytes)
        let out = String(decoding: bytes, as: UTF8.self)
        #expect(out == expected)
        #expect(JSONText.parse(out) == .string(text))
    }

    @Test("bytes, array slices and strings parse the same")
    func inputs() {
        let text = #"{"a":[1,2]}"#
        let bytes = Array(text.utf8)
        #expect(JSONText.parse(bytes) == JSONText.parse(text))
        #expect(JSONText.parse(bytes[...]) == JSONText.parse(text))
        #expect(JSONText.parse(Data(bytes)) == JSONText.parse(text))
    }

    @Test("response bodies parse through the fast path and XML still works")
    func observationBody() {
        #expect(Observation.parseBody(#"{"requestId":7,"total":165000}"#)?["total"] == .int(165_000))
        #expect(Observation.parseBody("<a><b>1</b></a>")?["a"]?["b"] == "1")
        #expect(Observation.parseBody("not json") == nil)
    }
}
