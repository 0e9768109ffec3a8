import PayCheckCore
import Testing

/// Values and their XML (without the declaration).
private let xmlCases: [(Value, String)] = [
    (["P": ["url": ["amount": "1"]]], "<P><url><amount>1</amount></url></P>"),
    (["r": ["n": 1500, "ok": true, "d": 2.5]], "<r><d>2.5</d><n>1500</n><ok>true</ok></r>"),
    (["r": ["item": ["a", "b"]]], "<r><item>a</item><item>b</item></r>"),
    (["r": ["@id": "7", "#text": "x"]], #"<r id="7">x</r>"#),
    (["r": ["@id": "7", "c": "d"]], #"<r id="7"><c>d</c></r>"#),
    (["r": nil], "<r/>"),
    (["r": "a < b & c > d"], "<r>a &lt; b &amp; c &gt; d</r>"),
    (["r": ["@q": "say \"hi\"\n"]], #"<r q="say &quot;hi&quot;&#10;"/>"#),
    (["r": "bell\u{7}"], "<r>bell\u{FFFD}</r>"),
]

/// Values that cannot be written as XML.
private let unwritable: [Value] = [
    "text", [1, 2], ["a": 1, "b": 2], ["r": [1, 2]], ["1r": "x"], ["r": ["bad name": "x"]], ["r": ["@a": ["x": 1]]],
    ["r": ["x": [[1]]]],
]

@Suite("XML writer and reader for Value")
struct XMLValueTests {
    @Test("values are written as XML", arguments: xmlCases)
    func write(_ value: Value, _ expected: String) {
        #expect(XMLValue.encode(value, declaration: false) == expected)
    }

    @Test("values that have no XML form are refused", arguments: unwritable)
    func refuse(_ value: Value) {
        #expect(XMLValue.encode(value) == nil)
    }

    @Test("the declaration is written by default")
    func declaration() {
        #expect(XMLValue.encode(["a": "1"]) == #"<?xml version="1.0" encoding="UTF-8"?><a>1</a>"#)
    }

    @Test("writing then reading gives the value back, scalars as strings")
    func roundTrip() throws {
        let value: Value = [
            "CENTEROFPAYMENTS": [
                "reference": "R1", "amount": 1500, "@version": "2",
                "data": [["@id": "1", "label": "a & b"], ["@id": "2", "label": "<c>"]],
            ]
        ]
        let xml = try #require(XMLValue.encode(value))
        let parsed = try #require(XMLValue.parse(xml))
        #expect(parsed["CENTEROFPAYMENTS"]?["amount"] == "1500")
        #expect(parsed["CENTEROFPAYMENTS"]?["@version"] == "2")
        #expect(parsed["CENTEROFPAYMENTS"]?["data"]?.arrayValue?.count == 2)
        #expect(parsed["CENTEROFPAYMENTS"]?["data"]?.arrayValue?.last?["label"] == "<c>")
        #expect(XMLValue.encode(parsed) == xml)
    }

    @Test("malformed XML does not parse")
    func malformed() {
        #expect(XMLValue.parse("<a><b></a>") == nil)
        #expect(XMLValue.parse("") == nil)
    }
}
