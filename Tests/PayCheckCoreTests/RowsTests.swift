import PayCheckCore
import Testing

@Suite("Parameterised cases and suites (rows:)")
struct RowsTests {
    private func load(_ yaml: String, file: String = "rows.yaml") -> (suites: [Suite], diagnostics: [Diagnostic]) {
        SuiteLoader(catalog: TestCatalog()).parseAll(text: yaml, file: file)
    }

    @Test("a case with rows is one case per row, named and located by its row")
    func caseRows() throws {
        let yaml = """
            suite: s
            cases:
              - name: "status {{ row.status }} on {{ row.path }}"
                rows:
                  - { status: 503, path: /a }
                  - { status: 429, path: /b }
                steps:
                  - http: { url: "http://x{{ row.path }}" }
                    expect: { status: "{{ row.status }}" }
            """
        let (suites, diagnostics) = load(yaml)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let cases = try #require(suites.first).cases
        #expect(cases.map(\.name) == ["status 503 on /a", "status 429 on /b"])
        #expect(cases.map(\.location.line) == [5, 6])
        guard case .http(let http) = cases[1].steps[0].kind else { Issue.record("not an http step"); return }
        #expect(http.url.source == "http://x/b")
        // A value used whole keeps its kind: the status is the number 429, not the text "429".
        guard case .eq(.literal(let status, _))? = cases[1].steps[0].expect?.status?.matchers.first?.matcher else {
            Issue.record("no literal status"); return
        }
        #expect(status == .int(429))
    }

    @Test("a value used whole takes the row's mapping; inside text it is spliced as text")
    func wholeValues() throws {
        let yaml = """
            suite: s
            cases:
              - name: "call {{ row.label }}"
                rows:
                  - { label: one, body: { a: 1, b: [x, y] } }
                steps:
                  - http: { url: "http://x", method: POST, json: "{{ row.body }}" }
            """
        let (suites, diagnostics) = load(yaml)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let step = try #require(suites.first?.cases.first?.steps.first)
        guard case .http(let http) = step.kind, case .json(let json)? = http.body else { Issue.record("no JSON body"); return }
        #expect(json.members?.map(\.key) == ["a", "b"])
    }

    @Test("a suite with rows is one suite per row; its cases' rows can use the suite's row values")
    func suiteRows() throws {
        let yaml = """
            suite: "Faults · {{ row.label }}"
            rows:
              - { label: first, base: "http://a" }
              - { label: second, base: "http://b" }
            cases:
              - name: "{{ row.code }} at {{ row.label }}"
                rows: [{ code: 500 }, { code: 502 }]
                steps:
                  - http: { url: "{{ row.base }}/{{ row.code }}" }
              - name: plain
                steps:
                  - http: { url: "{{ row.base }}" }
            """
        let (suites, diagnostics) = load(yaml)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(suites.map(\.name) == ["Faults · first", "Faults · second"])
        #expect(suites.map { $0.cases.map(\.name) } == [["500 at first", "502 at first", "plain"], ["500 at second", "502 at second", "plain"]])
        #expect(suites.map(\.location.line) == [3, 4])
    }

    @Test("a mistake in the template is reported once; one only some rows make says which rows")
    func diagnosticsPerRow() {
        let yaml = """
            suite: s
            cases:
              - name: "{{ row.n }}"
                rows:
                  - { n: a, method: GET }
                  - { n: b, method: FETCH }
                  - { n: c, method: GET }
                steps:
                  - http: { url: "http://x", method: "{{ row.method }}" }
                    expekt: { status: 200 }
            """
        let messages = load(yaml).diagnostics.map(\.message)
        #expect(messages.filter { $0.contains("unknown key 'expekt'") } == ["unknown key 'expekt' in a step"], "\(messages)")
        #expect(messages.contains { $0.contains("FETCH") && $0.hasSuffix("(in the row at line 6)") }, "\(messages)")
    }

    @Test(
        "the table's mistakes are located errors",
        arguments: [
            ("rows: []", "'rows' of a case is empty"),
            ("rows: { a: 1 }", "'rows' of a case must be a list of mappings"),
            ("rows: [{ a: 1 }, { b: 2 }]", "this row has no 'a' and an extra 'b'"),
            ("rows: [{ 1a: 1 }]", "'1a' cannot be a row key"),
        ])
    func tableErrors(rows: String, message: String) {
        let yaml = "suite: s\ncases:\n  - name: \"n {{ row.a }}\"\n    \(rows)\n    steps:\n      - http: { url: 'http://x' }\n"
        let diagnostics = load(yaml).diagnostics
        #expect(diagnostics.contains { $0.message.hasPrefix(message) && $0.location?.line == 4 }, "\(diagnostics)")
    }

    @Test("a name without a row value, an unknown key and a row reference outside a table are errors")
    func referenceErrors() {
        let sameName = "suite: s\ncases:\n  - name: same\n    rows: [{ a: 1 }, { a: 2 }]\n    steps:\n      - http: { url: 'http://x/{{ row.a }}' }\n"
        #expect(load(sameName).diagnostics.contains { $0.message == "a case with rows needs a name that uses a row value" && $0.location?.line == 3 })
        let misspelt = "suite: s\ncases:\n  - name: 'n {{ row.status }}'\n    rows: [{ status: 1 }]\n    steps:\n      - http: { url: 'http://x/{{ row.stauts }}' }\n"
        let unknown = load(misspelt).diagnostics
        #expect(unknown.contains { $0.message == "the rows have no 'stauts'" && $0.hint == "did you mean 'row.status'?" && $0.location?.line == 6 }, "\(unknown)")
        let outside = "suite: s\ncases:\n  - name: n\n    steps:\n      - http: { url: 'http://x/{{ row.a }}' }\n"
        #expect(load(outside).diagnostics.map(\.message) == ["'{{ row.a }}' is used outside a table"])
        let clash = "suite: 's {{ row.a }}'\nrows: [{ a: 1 }]\ncases:\n  - name: 'n {{ row.a }}'\n    rows: [{ a: 2 }]\n    steps:\n      - http: { url: 'http://x' }\n"
        #expect(load(clash).diagnostics.contains { $0.message == "'a' is already a key of the suite's rows" })
        let twoSuites = "suite: 's {{ row.a }}'\nrows: [{ a: 1, b: 1 }, { a: 1, b: 2 }]\ncases:\n  - name: n\n    steps:\n      - http: { url: 'http://x/{{ row.b }}' }\n"
        #expect(load(twoSuites).diagnostics.contains { $0.message.hasPrefix("this row names its suite 's 1' like the row at line 2") })
    }

    @Test("a mapping cannot be spliced into text")
    func mappingInText() {
        let yaml = "suite: s\ncases:\n  - name: 'n {{ row.m }}'\n    rows: [{ m: { a: 1 } }]\n    steps:\n      - http: { url: 'http://x' }\n"
        #expect(load(yaml).diagnostics.contains { $0.message == "row value 'm' is a mapping, which cannot go inside text" })
    }
}
