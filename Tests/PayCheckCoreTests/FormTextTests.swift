import PayCheckCore
import Testing

/// Texts and their form encoding (WHATWG application/x-www-form-urlencoded).
private let encodings: [(String, String)] = [
    ("abcXYZ019", "abcXYZ019"), ("a b", "a+b"), ("*-._", "*-._"), ("~", "%7E"), ("a+b", "a%2Bb"),
    ("a&b=c", "a%26b%3Dc"), ("100%", "100%25"), ("é", "%C3%A9"), ("🎉", "%F0%9F%8E%89"), ("/?#", "%2F%3F%23"),
    ("", ""), ("\n", "%0A"),
]

/// Form texts and the pairs they decode to.
private let decodings: [(String, [String])] = [
    ("a=1&b=2", ["a=1", "b=2"]), ("a=x+y", ["a=x y"]), ("a=%41%62", ["a=Ab"]), ("a=%4", ["a=%4"]),
    ("a=%zz", ["a=%zz"]), ("&&a=1&&", ["a=1"]), ("flag", ["flag="]), ("a==b", ["a==b"]), ("=v", ["=v"]),
    ("a=%C3%A9", ["a=é"]), ("a=%FF", ["a=\u{FFFD}"]), ("a[b]=c", ["a[b]=c"]), ("", []),
]

@Suite("Form encoding (application/x-www-form-urlencoded)")
struct FormTextTests {
    @Test("percent-encoding follows the WHATWG form byte set", arguments: encodings)
    func encode(_ text: String, _ expected: String) {
        #expect(FormText.percentEncode(text) == expected)
        #expect(FormText.percentDecode(expected.utf8) == text)
    }

    @Test("decoding splits pairs and decodes + and %XX", arguments: decodings)
    func decode(_ text: String, _ expected: [String]) {
        #expect(FormText.decodePairs(text).map { "\($0.name)=\($0.value)" } == expected)
    }

    @Test("pairs keep their order; objects are written with sorted keys and repeated keys for arrays")
    func encodeValues() {
        #expect(FormText.encode([("z", "1"), ("a", "x y")]) == "z=1&a=x+y")
        #expect(FormText.percentEncode("a b~", spaceAsPlus: false) == "a%20b%7E")
        let value: Value = ["amount": 1000, "subject": "Pago #1", "tags": ["a", "b"], "ok": true, "none": nil]
        #expect(FormText.encode(value) == "amount=1000&none=&ok=true&subject=Pago+%231&tags=a&tags=b")
        #expect(FormText.encode("not an object") == nil)
    }

    @Test("decoding to a value: strings, repeated names as arrays, and a round trip")
    func decodeValues() {
        #expect(FormText.decode("a=1&b=x+y&a=2&a=3") == ["a": ["1", "2", "3"], "b": "x y"])
        let value: Value = ["receiver_id": "985", "subject": "Café & más", "amount": "1500.50"]
        #expect(FormText.decode(FormText.encode(value) ?? "") == value)
    }
}
