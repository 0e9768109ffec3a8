import Foundation
import PayCheckCore
import Testing

@Suite("Values, paths, templates and matchers")
struct ValueTests {
    let at = SourceLocation(file: "t.yaml", line: 1, column: 1)

    @Test("paths address objects, arrays, negative indexes and quoted keys")
    func paths() throws {
        let value: Value = ["a": ["b": [["c": 1], ["c": 2]]], "x.y": "dotted"]
        #expect(try ValuePath(parsing: "a.b[0].c").lookup(in: value) == 1)
        #expect(try ValuePath(parsing: "$.a.b[-1].c").lookup(in: value) == 2)
        #expect(try ValuePath(parsing: "['x.y']").lookup(in: value) == "dotted")
        #expect(try ValuePath(parsing: "a.b.length").lookup(in: value) == 2)
        #expect(try ValuePath(parsing: "a.z").lookup(in: value) == nil)
        #expect(throws: ValuePath.PathError.self) { try ValuePath(parsing: "a[") }
    }

    @Test("XML bodies are addressable like JSON")
    func xml() throws {
        let xml =
            "<CENTEROFPAYMENTS><reference>R1</reference><response>approved</response><data id=\"1\"><label>a</label></data><data id=\"2\"><label>b</label></data></CENTEROFPAYMENTS>"
        let value = try #require(Observation.parseBody(xml))
        #expect(try ValuePath(parsing: "CENTEROFPAYMENTS.response").lookup(in: value) == "approved")
        #expect(try ValuePath(parsing: "CENTEROFPAYMENTS.data[1].label").lookup(in: value) == "b")
        #expect(try ValuePath(parsing: "CENTEROFPAYMENTS.data[0].@id").lookup(in: value) == "1")
    }

    @Test("JSON round-trips with sorted keys and escapes")
    func json() throws {
        let value: Value = ["b": [1, 2.5, true, nil], "a": "q\"\n\u{1}"]
        let text = JSONText.encode(value)
        #expect(text == "{\"a\":\"q\\\"\\n\\u0001\",\"b\":[1,2.5,true,null]}")
        #expect(JSONText.parse(text) == value)
    }

    @Test("a single-expression template keeps its type; mixed templates interpolate")
    func templates() throws {
        let renderer = TemplateRenderer(variables: ["id": 42, "s": ["body": ["x": "y"]]])
        #expect(try renderer.render(Template.parse("{{ id }}", at: at)) == .int(42))
        #expect(try renderer.render(Template.parse("id={{ id }}/{{ s.body.x }}", at: at)) == "id=42/y")
        #expect(throws: TemplateRenderer.RenderError.self) { try renderer.render(Template.parse("{{ idd }}", at: at)) }
    }

    @Test("templates split at every hole, whatever the text around (multi-byte, combining marks, unterminated)")
    func templateParts() throws {
        let renderer = TemplateRenderer(variables: ["id": 42])
        #expect(try renderer.render(Template.parse("é{{ id }}\u{301}ñ{{id}}}", at: at)) == "é42\u{301}ñ42}")
        #expect(
            try renderer.render(Template.parse(String(repeating: "a{{ id }}", count: 20_000), at: at)).interpolated
                == String(repeating: "a42", count: 20_000))
        #expect(try Template.parse(String(repeating: "{{ id }}", count: 20_000), at: at).parts.count == 20_000)
        #expect(throws: ExpressionError.self) { try Template.parse("ok {{ id }} then {{ id", at: at) }
    }

    @Test("functions use the injected clock and randomness")
    func functions() throws {
        let fixed = Date(timeIntervalSince1970: 1_768_489_200)  // 2026-01-15T15:00:00Z
        let renderer = TemplateRenderer(environment: ["HOME": "/h"], now: { fixed }, random: { 7 })
        #expect(try renderer.render(Template.parse("{{ now() }}", at: at)) == "2026-01-15T15:00:00Z")
        #expect(try renderer.render(Template.parse("{{ now('+5m', 'HH:mm') }}", at: at)) == "15:05")
        #expect(try renderer.render(Template.parse("{{ now('-1h', 'unix') }}", at: at)) == "1768485600")
        #expect(try renderer.render(Template.parse("{{ random(4) }}", at: at)) == "7777")
        #expect(try renderer.render(Template.parse("{{ env('HOME') }}", at: at)) == "/h")
        let uuid = try renderer.render(Template.parse("{{ uuid() }}", at: at)).interpolated
        #expect(uuid.count == 36 && uuid.split(separator: "-").count == 5)
    }

    @Test("number() reads a number written as text, so an expectation derived from a string variable compares with an answer's number")
    func numberFunction() throws {
        let renderer = TemplateRenderer(variables: ["amount": "10.50", "whole": "5000", "n": 7, "word": "ten"])
        #expect(try renderer.render(Template.parse("{{ number(amount) }}", at: at)) == .double(10.5))
        #expect(try renderer.render(Template.parse("{{ number(whole) }}", at: at)) == .int(5000))
        #expect(try renderer.render(Template.parse("{{ number(n) }}", at: at)) == .int(7))
        #expect(try renderer.render(Template.parse("{{ number(amount) }}", at: at)).matches(.double(10.50)))
        #expect(throws: TemplateRenderer.RenderError.self) { try renderer.render(Template.parse("{{ number(word) }}", at: at)) }
        #expect(throws: ExpressionError.self) { try Template.parse("{{ number() }}", at: at) }
    }

    @Test("a case's catches: is parsed, and an empty one is refused")
    func catchesKey() throws {
        let yaml = "suite: s\ncases:\n  - name: c\n    catches: backends that take pending as paid\n    steps:\n      - http: { url: 'http://x' }\n"
        let (suite, diagnostics) = SuiteLoader().parse(text: yaml, file: "c.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(suite?.cases.first?.catches == "backends that take pending as paid")
        let empty = SuiteLoader().parse(text: yaml.replacingOccurrences(of: "backends that take pending as paid", with: "''"), file: "c.yaml")
        #expect(empty.1.hasErrors)
    }

    @Test("matchers report expected and actual values at the matcher's location")
    func matchers() throws {
        let yaml =
            "suite: s\ncases:\n  - name: c\n    steps:\n      - http: { url: 'http://x' }\n        expect:\n          status: 201\n          body:\n            a: { gt: 5, matches: '^\\d+$' }\n            b: { in: [x, y] }\n            c: { exists: false }\n            d: { length: 2 }\n"
        let (suite, diagnostics) = SuiteLoader().parse(text: yaml, file: "m.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let expect = try #require(suite?.cases[0].steps[0].expect)
        let observation = Observation(status: 200, body: ["a": 3, "b": "z", "c": 1, "d": [1, 2]])
        let mismatches = try ExpectationEvaluator(renderer: TemplateRenderer()).evaluate(expect, against: observation)
        #expect(mismatches.map(\.subject) == ["status", "body.a", "body.b", "body.c"])
        #expect(mismatches[0].location == SourceLocation(file: "m.yaml", line: 7, column: 19))
        #expect(mismatches[0].expected.text == "201" && mismatches[0].actual.text == "200")
        #expect(mismatches[1].expected.text == "gt 5" && mismatches[1].actual.text == "3")
        #expect(mismatches[1].location.line == 9)
        // They stay values until a reporter renders them.
        #expect(mismatches[1].expected == .matcher("gt", 5) && mismatches[1].actual == .value(3))
        #expect(mismatches[2].expected == .matcher("in", ["x", "y"]) && mismatches[2].actual == .value("z"))
        #expect(mismatches[3].expected == .presence(false) && mismatches[3].actual == .value(1))
    }

    @Test("durations parse with units and signs")
    func durations() {
        #expect(DurationText.seconds("500ms") == 0.5)
        #expect(DurationText.seconds("+31m") == 1860)
        #expect(DurationText.seconds("-1h") == -3600)
        #expect(DurationText.seconds("2") == 2)
        #expect(DurationText.seconds("soon") == nil)
    }

    @Test("suggestions find plausible typos only")
    func suggestions() {
        #expect(Suggest.nearest("expct", in: ["expect", "capture"]) == "expect")
        #expect(Suggest.nearest("zzzzzz", in: ["expect", "capture"]) == nil)
    }
}

/// Error codes are identifiers: `code: 102` (a YAML number) and `code: "102"` match the same observed code.
@Suite("Error code expectations")
struct ErrorCodeExpectationTests {
    @Test(
        "code: 102 and code: \"102\" both match the code 102; 103 does not",
        arguments: [
            ("{ code: 102 }", true), ("{ code: \"102\" }", true), ("{ code: { in: [101, 102] } }", true), ("{ code: 103 }", false),
            ("{ class: A, code: 102 }", true),
        ])
    func codesAreIdentifiers(yaml: String, matches: Bool) throws {
        let text = "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - call: createSession\n        expect: { error: \(yaml) }\n"
        let (suite, diagnostics) = SuiteLoader(catalog: TestCatalog()).parse(text: text, file: "e.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let expect = try #require(suite?.cases.first?.steps.first?.expect)
        let observation = Observation(status: 401, error: ObservedError(errorClass: .A, code: "102", message: "Authentication failed 102"))
        let renderer = TemplateRenderer(variables: [:], environment: [:], now: { Date() }, random: { 1 })
        let mismatches = try ExpectationEvaluator(renderer: renderer).evaluate(expect, against: observation)
        #expect(mismatches.isEmpty == matches, "\(mismatches.map(\.message))")
    }
}
