import PayCheckCore
import Testing

/// Values and the lenient boolean they read as.
private let boolCases: [(Value, Bool?)] = [
    (.bool(true), true), ("true", true), ("FALSE", false), ("1", true), ("0", false), (1, true),
    (0, false), (.double(1), true), (2, nil), ("yes", nil), (nil, nil), ([1], nil),
]

/// Values and the lenient number they read as.
private let numberCases: [(Value, Double?)] = [
    (.int(165_000), 165_000), (.double(1.5), 1.5), ("165000", 165_000), (" 2.5 ", 2.5),
    ("1e3", 1000), ("12abc", nil), ("", nil), ("inf", nil), ("0x10", nil), (.bool(true), nil), (nil, nil),
]

/// Values with their lenient (`intValue`) and strict (`wholeNumber`) integer reads.
private let integerCases: [(Value, Int?, Int?)] = [
    (.int(7), 7, 7), (.double(7), 7, 7), (.double(7.5), nil, nil), ("42", 42, nil),
    ("-42", nil, nil), ("4 2", nil, nil), (.double(1e16), nil, nil), (.bool(true), nil, nil),
]

/// Values with their type description and display text.
private let descriptionCases: [(Value, String, String)] = [
    (.null, "null", "null"), (true, "a boolean", "true"), (165_000, "a number", "165000"),
    (.double(2.5), "a number", "2.5"), ("txt", "a string", "txt"), ([1], "an array", "<object or array>"),
    (["k": 1], "an object", "<object or array>"),
]

@Suite("Value accessors: strict and lenient reads")
struct ValueAccessorsTests {
    @Test("lenient reads accept what form-style clients send", arguments: boolCases)
    func bools(_ value: Value, _ expected: Bool?) {
        #expect(value.boolValue == expected)
    }

    @Test("numbers are read from numbers and numeric strings", arguments: numberCases)
    func numbers(_ value: Value, _ expected: Double?) {
        #expect(value.numberValue == expected)
    }

    @Test("integers: intValue takes digit strings, wholeNumber does not", arguments: integerCases)
    func integers(_ value: Value, _ lenient: Int?, _ strict: Int?) {
        #expect(value.intValue == lenient)
        #expect(value.wholeNumber == strict)
    }

    @Test("a computed number is an integer when whole, so it is written without '.0'")
    func numberInit() {
        #expect(Value(number: 165_000) == .int(165_000))
        #expect(JSONText.encode(Value(number: 165_000)) == "165000")
        #expect(Value(number: 1.5) == .double(1.5))
        #expect(Value(number: 1e20) == .double(1e20))
        #expect(Value(number: .nan).number?.isNaN == true)
    }

    @Test("strict accessors never convert")
    func strict() {
        let value: Value = ["s": "x", "n": 1, "o": ["k": true], "a": [1, 2]]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.stringValue == nil)
        #expect(value["o"]?.objectValue == ["k": true])
        #expect(value["a"]?.arrayValue == [1, 2])
        #expect(value["missing"] == nil)
        #expect(Value.string("x")["s"] == nil)
    }

    @Test("type descriptions and display text for error messages", arguments: descriptionCases)
    func descriptions(_ value: Value, _ type: String, _ display: String) {
        #expect(value.typeDescription == type)
        #expect(value.displayText == display)
    }
}
