import PayCheckCore
import Testing

/// A catalog with one provider, so provider-dependent diagnostics can be exercised.
struct TestCatalog: ProviderCatalog {
    func provider(_ id: String) -> ProviderDescription? {
        var description =
            id == "acme"
            ? ProviderDescription(
                id: "acme",
                specs: [
                    .call: [
                        ActionSpec("createSession", parameters: ["payment", "returnUrl"], authKeys: ["secretKey", "login", "seedOffset"]),
                        ActionSpec("querySession", parameters: ["requestId"], authKeys: ["secretKey"]),
                    ],
                    .payer: [ActionSpec("pay", parameters: ["requestId", "card"]), ActionSpec("cancel", parameters: ["requestId"])],
                    .mock: [ActionSpec("notify", parameters: ["requestId", "url"])],
                    .redirect: [ActionSpec("return")], .deeplink: [ActionSpec("open")],
                ])
            : nil
        description?.credentialNames = ["apiKey"]
        return description
    }
    var providerIDs: [String] { ["acme"] }
}

/// One diagnostic expectation: the YAML, where the error must be, and text the message (or hint) must contain.
struct DiagnosticCase: CustomTestStringConvertible, Sendable {
    let label: String
    let yaml: String
    let line: Int
    let column: Int
    let message: String
    var hint: String? = nil
    var testDescription: String { label }
}

private let header = "suite: s\ncases:\n  - name: c\n    steps:\n"

/// Wraps one step (indented by six spaces) into a minimal suite; the step starts on line 5.
private func step(_ body: String) -> String { header + body }

let diagnosticCases: [DiagnosticCase] = [
    DiagnosticCase(label: "empty file", yaml: "", line: 1, column: 1, message: "the file is empty"),
    DiagnosticCase(label: "YAML syntax error", yaml: "suite: s\ncases: [\n", line: 3, column: 1, message: "invalid YAML"),
    DiagnosticCase(label: "tab indentation", yaml: "suite: s\ncases:\n\t- name: x\n", line: 3, column: 1, message: "invalid YAML"),
    DiagnosticCase(label: "root is a list", yaml: "- a\n- b\n", line: 1, column: 1, message: "a suite file must be a mapping, found a list"),
    DiagnosticCase(label: "missing suite name", yaml: "cases:\n  - name: c\n    steps:\n      - wait: 1ms\n", line: 1, column: 1, message: "missing key 'suite'"),
    DiagnosticCase(label: "missing cases", yaml: "suite: s\n", line: 1, column: 1, message: "missing key 'cases'"),
    DiagnosticCase(
        label: "misspelt top-level key", yaml: "suite: s\ncasse: []\ncases:\n  - name: c\n    steps: [{ wait: 1ms }]\n", line: 2, column: 1,
        message: "unknown key 'casse' in the suite", hint: "did you mean 'cases'?"),
    DiagnosticCase(label: "cases not a list", yaml: "suite: s\ncases: nope\n", line: 2, column: 8, message: "'cases' must be a list of cases"),
    DiagnosticCase(label: "empty cases", yaml: "suite: s\ncases: []\n", line: 2, column: 8, message: "'cases' is empty"),
    DiagnosticCase(label: "case without name", yaml: "suite: s\ncases:\n  - steps: [{ wait: 1ms }]\n", line: 3, column: 5, message: "a case needs a 'name'"),
    DiagnosticCase(label: "case without steps", yaml: "suite: s\ncases:\n  - name: c\n", line: 3, column: 5, message: "case 'c' has no 'steps'"),
    DiagnosticCase(
        label: "misspelt case key", yaml: "suite: s\ncases:\n  - name: c\n    stpes: []\n    steps: [{ wait: 1ms }]\n", line: 4, column: 5,
        message: "unknown key 'stpes' in a case", hint: "did you mean 'steps'?"),
    DiagnosticCase(
        label: "duplicate case names", yaml: "suite: s\ncases:\n  - name: c\n    steps: [{ wait: 1ms }]\n  - name: c\n    steps: [{ wait: 1ms }]\n", line: 5, column: 5,
        message: "duplicate case name 'c' (first at line 3)"),
    DiagnosticCase(label: "duplicate key", yaml: "suite: s\nsuite: t\ncases: []\n", line: 1, column: 1, message: "duplicate key 'suite'"),
    DiagnosticCase(label: "step without action", yaml: step("      - name: nothing\n"), line: 5, column: 9, message: "a step needs exactly one action"),
    DiagnosticCase(
        label: "two actions in a step", yaml: step("      - wait: 1ms\n        http: { url: 'http://x' }\n"), line: 6, column: 9,
        message: "a step has one action, found 'wait' and 'http'"),
    DiagnosticCase(
        label: "misspelt step key", yaml: step("      - http: { url: 'http://x' }\n        expct: { status: 200 }\n"), line: 6, column: 9, message: "unknown key 'expct' in a step",
        hint: "did you mean 'expect'?"),
    DiagnosticCase(label: "http without url", yaml: step("      - http: { method: GET }\n"), line: 5, column: 15, message: "an 'http' step needs a 'url'"),
    DiagnosticCase(
        label: "unknown http method", yaml: step("      - http: { method: GTE, url: 'http://x' }\n"), line: 5, column: 25, message: "unknown HTTP method 'GTE'",
        hint: "did you mean 'GET'?"),
    DiagnosticCase(label: "relative url", yaml: step("      - http: { url: 'example.com/x' }\n"), line: 5, column: 22, message: "must start with http:// or https://"),
    DiagnosticCase(label: "two bodies", yaml: step("      - http: { url: 'http://x', json: {}, form: {} }\n"), line: 5, column: 44, message: "'json' and 'form' both give a body"),
    DiagnosticCase(
        label: "misspelt http key", yaml: step("      - http: { url: 'http://x', heders: {} }\n"), line: 5, column: 34, message: "unknown key 'heders' in 'http'",
        hint: "did you mean 'headers'?"),
    DiagnosticCase(label: "unterminated template", yaml: step("      - http: { url: 'http://x/{{ id' }\n"), line: 5, column: 22, message: "unterminated '{{'"),
    DiagnosticCase(
        label: "unknown template function", yaml: step("      - http: { url: 'http://x/{{ uuidd() }}' }\n"), line: 5, column: 22, message: "unknown function 'uuidd()'",
        hint: "did you mean 'uuid()'?"),
    DiagnosticCase(
        label: "wrong function arity", yaml: step("      - http: { url: 'http://x/{{ random() }}' }\n"), line: 5, column: 22, message: "'random()' takes 1 argument, got 0"),
    DiagnosticCase(label: "empty template expression", yaml: step("      - http: { url: 'http://x/{{ }}' }\n"), line: 5, column: 22, message: "empty expression"),
    DiagnosticCase(
        label: "invalid wait duration", yaml: step("      - wait: soon\n"), line: 5, column: 15, message: "'wait' must be a duration like '500ms', '2s' or '1m', found 'soon'"),
    DiagnosticCase(
        label: "unknown matcher", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          body: { a: { eqq: 1 } }\n"), line: 7, column: 24,
        message: "unknown matcher 'eqq'", hint: "did you mean 'eq'?"),
    DiagnosticCase(
        label: "another tool's matcher word", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          body: { status: { equals: open } }\n"), line: 7, column: 29,
        message: "unknown matcher 'equals'", hint: "did you mean 'eq'? (to compare with an object, write 'eq: { equals: … }')"),
    DiagnosticCase(
        label: "an undefined variable beside another error", yaml: step("      - wait: soon\n      - http: { url: 'http://x/{{ nowhere }}' }\n"), line: 6, column: 22,
        message: "undefined variable 'nowhere'"),
    DiagnosticCase(
        label: "mixed matcher and plain keys", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          body: { a: { eq: 1, total: 2 } }\n"), line: 7, column: 31,
        message: "unknown matcher 'total'"),
    DiagnosticCase(
        label: "invalid regex", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          body: { a: { matches: '([a-z' } }\n"), line: 7, column: 33,
        message: "invalid regular expression '([a-z'"),
    DiagnosticCase(
        label: "unknown type name", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          body: { a: { type: integr } }\n"), line: 7, column: 30,
        message: "unknown type 'integr'", hint: "did you mean 'integer'?"),
    DiagnosticCase(
        label: "exists takes a boolean", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          body: { a: { exists: maybe } }\n"), line: 7, column: 32,
        message: "'exists' takes true or false"),
    DiagnosticCase(
        label: "in takes a list", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          status: { in: 200 }\n"), line: 7, column: 25,
        message: "'in' takes a list of allowed values"),
    DiagnosticCase(
        label: "comparison with text", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          status: { lt: lots }\n"), line: 7, column: 25,
        message: "'lt' compares numbers"),
    DiagnosticCase(
        label: "status out of range", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          status: 999\n"), line: 7, column: 19,
        message: "status 999 is not an HTTP status"),
    DiagnosticCase(
        label: "invalid body path", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          body: { 'a..b': 1 }\n"), line: 7, column: 19,
        message: "invalid path 'a..b'"),
    DiagnosticCase(
        label: "misspelt expect key", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          staus: 200\n"), line: 7, column: 11,
        message: "unknown key 'staus' in 'expect'", hint: "did you mean 'status'?"),
    DiagnosticCase(
        label: "outcome without provider", yaml: step("      - http: { url: 'http://x' }\n        expect:\n          outcome: succeeded\n"), line: 7, column: 11,
        message: "'outcome' needs a provider"),
    DiagnosticCase(
        label: "unknown capture source", yaml: step("      - http: { url: 'http://x' }\n        capture: { id: bdy.id }\n"), line: 6, column: 24,
        message: "unknown capture source 'bdy.id'", hint: "did you mean 'body…'?"),
    DiagnosticCase(
        label: "invalid variable name", yaml: "suite: s\nvars: { 1st: x }\ncases:\n  - name: c\n    steps: [{ wait: 1ms }]\n", line: 2, column: 9,
        message: "variable name '1st' is not valid"),
    DiagnosticCase(
        label: "misspelt retry key", yaml: step("      - http: { url: 'http://x' }\n        retry: { evry: 1s }\n"), line: 6, column: 18, message: "unknown key 'evry' in 'retry'",
        hint: "did you mean 'every'?"),
    DiagnosticCase(label: "zero timeout", yaml: step("      - http: { url: 'http://x' }\n        timeout: 0s\n"), line: 6, column: 18, message: "'timeout' must be more than zero"),
    DiagnosticCase(
        label: "unknown provider", yaml: "suite: s\nprovider: acmee\ncases:\n  - name: c\n    steps: [{ wait: 1ms }]\n", line: 2, column: 11, message: "unknown provider 'acmee'",
        hint: "did you mean 'acme'?"),
    DiagnosticCase(label: "call without provider", yaml: step("      - call: createSession\n"), line: 5, column: 15, message: "'call: createSession' needs a provider"),
    DiagnosticCase(
        label: "unknown operation", yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - call: createSesion\n", line: 6, column: 15,
        message: "unknown operation 'createSesion' for provider 'acme'", hint: "did you mean 'createSession'?"),
    DiagnosticCase(
        label: "unknown with key of an operation", yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - call: createSession\n        with: { paymnet: {} }\n",
        line: 7, column: 17, message: "unknown parameter 'paymnet' for 'call: createSession' of provider 'acme'", hint: "did you mean 'payment'?"),
    DiagnosticCase(
        label: "unknown auth key", yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - call: createSession\n        auth: { secretkey: x }\n", line: 7,
        column: 17, message: "unknown auth override 'secretkey' for 'call: createSession' of provider 'acme'", hint: "did you mean 'secretKey'?"),
    DiagnosticCase(
        label: "auth on an operation that takes none", yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - payer: pay\n        auth: { secretKey: x }\n",
        line: 7, column: 9, message: "'auth' overrides go with 'call' steps only"),
    DiagnosticCase(
        label: "unknown with key of a payer action",
        yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - payer: pay\n        with: { requestId: 1, crad: x }\n", line: 7, column: 31,
        message: "unknown parameter 'crad' for 'payer: pay' of provider 'acme'", hint: "did you mean 'card'?"),
    DiagnosticCase(
        label: "unknown with key of a generic mock action", yaml: "suite: s\ncases:\n  - name: c\n    steps:\n      - mock: clock\n        with: { advnce: 31m }\n", line: 6,
        column: 17, message: "unknown parameter 'advnce' for 'mock: clock' of the mock host", hint: "did you mean 'advance'?"),
    DiagnosticCase(
        label: "unknown provider mock action", yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - mock: notfy\n", line: 6, column: 15,
        message: "unknown mock action 'notfy' for provider 'acme'", hint: "did you mean 'notify'?"),
    DiagnosticCase(
        label: "undefined variable with a near name", yaml: "suite: s\nvars: { key: k }\ncases:\n  - name: c\n    steps:\n      - http: { url: 'http://x/{{ keey }}' }\n", line: 6,
        column: 22, message: "undefined variable 'keey' in '{{ keey }}'", hint: "did you mean 'key'?"),
    DiagnosticCase(
        label: "misspelt built-in member", yaml: "suite: s\ncases:\n  - name: c\n    steps:\n      - http: { url: '{{ mock.ulr }}/x' }\n", line: 5, column: 22,
        message: "'mock' has no member 'ulr' in '{{ mock.ulr }}'", hint: "did you mean 'mock.url'?"),
    DiagnosticCase(
        label: "capture read before the step that captures it",
        yaml: "suite: s\ncases:\n  - name: c\n    steps:\n      - http: { url: 'http://x/{{ id }}' }\n      - http: { url: 'http://x' }\n        capture: { id: body.id }\n",
        line: 5, column: 22, message: "undefined variable 'id' in '{{ id }}'"),
    DiagnosticCase(
        label: "undefined variable in an expectation",
        yaml: "suite: s\ncases:\n  - name: c\n    steps:\n      - http: { url: 'http://x' }\n        expect: { body: { a: '{{ tota }}' } }\n", line: 6, column: 30,
        message: "undefined variable 'tota' in '{{ tota }}'", hint: "define it in 'vars', capture it in an earlier step, or pass --var tota=…"),
    DiagnosticCase(
        label: "a case var is not visible in another case",
        yaml: "suite: s\ncases:\n  - name: a\n    vars: { only: x }\n    steps: [{ wait: 1ms }]\n  - name: b\n    steps:\n      - http: { url: 'http://x/{{ only }}' }\n", line: 8,
        column: 22, message: "undefined variable 'only' in '{{ only }}'"),
    DiagnosticCase(
        label: "quoted status", yaml: step("      - http: { url: 'http://x' }\n        expect: { status: '401' }\n"), line: 6, column: 27,
        message: "status must be a number, found \"401\"", hint: "write the status unquoted, e.g. 'status: 401'"),
    DiagnosticCase(
        label: "a quoted status among allowed ones", yaml: step("      - http: { url: 'http://x' }\n        expect: { status: { in: [200, '201'] } }\n"), line: 6, column: 33,
        message: "status must be a number, found \"201\""),
    DiagnosticCase(
        label: "length that is not a count", yaml: step("      - http: { url: 'http://x' }\n        expect: { body: { a: { length: abc } } }\n"), line: 6, column: 40,
        message: "'length' must be a number, found \"abc\""),
    DiagnosticCase(
        label: "length with a string matcher", yaml: step("      - http: { url: 'http://x' }\n        expect: { body: { a: { length: { matches: x } } } }\n"), line: 6, column: 51,
        message: "'length' is a number; 'matches' never matches it"),
    DiagnosticCase(
        label: "function calls nested too deep",
        yaml: step(
            "      - http: { url: 'http://x/{{ uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid(uuid()))))))))))))))))))) }}' }\n"),
        line: 5, column: 22, message: "function calls are nested more than 16 deep in a template"),
    DiagnosticCase(label: "wait beyond ten years", yaml: step("      - wait: 213504d\n"), line: 5, column: 15, message: "'wait' must be at most 3650d (10 years), found '213504d'"),
    DiagnosticCase(
        label: "step timeout beyond ten years", yaml: step("      - http: { url: 'http://x' }\n        timeout: 1e30s\n"), line: 6, column: 18,
        message: "'timeout' must be at most 3650d (10 years), found '1e30s'"),
    DiagnosticCase(
        label: "retry every beyond ten years", yaml: step("      - http: { url: 'http://x' }\n        retry: { until: { status: 200 }, every: 1e30s, for: 1m }\n"), line: 6,
        column: 49, message: "'every' must be at most 3650d (10 years), found '1e30s'"),
    DiagnosticCase(
        label: "negative retry window", yaml: step("      - http: { url: 'http://x' }\n        retry: { until: { status: 200 }, every: 1s, for: -1m }\n"), line: 6, column: 58,
        message: "'for' must be a duration like '500ms', '2s' or '1m', found '-1m'"),
    DiagnosticCase(
        label: "now() offset beyond any date", yaml: step("      - http: { url: \"http://x/{{ now('+1e19', 'unix') }}\" }\n"), line: 5, column: 22,
        message: "now() offset '+1e19' is longer than the limit of 3650d (10 years)"),
    DiagnosticCase(
        label: "misspelt member of target", yaml: step("      - http: { url: 'http://x/{{ target.providerURL }}' }\n"), line: 5, column: 22,
        message: "'target' has no member 'providerURL' in '{{ target.providerURL }}'", hint: "did you mean 'target.providerUrl'?"),
    DiagnosticCase(
        label: "undefined variable in a header", yaml: step("      - http: { url: 'http://x', headers: { X-Id: '{{ orderid }}' } }\n"), line: 5, column: 51,
        message: "undefined variable 'orderid' in '{{ orderid }}'", hint: "define it in 'vars', capture it in an earlier step, or pass --var orderid=…"),
    DiagnosticCase(
        label: "undefined variable in an auth override",
        yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - call: createSession\n        auth: { secretKey: '{{ secret }}' }\n", line: 7, column: 28,
        message: "undefined variable 'secret' in '{{ secret }}'"),
    DiagnosticCase(
        label: "set reads a binding defined after it", yaml: step("      - set: { a: '{{ b }}', b: 1 }\n"), line: 5, column: 19, message: "undefined variable 'b' in '{{ b }}'"),
    DiagnosticCase(
        label: "undefined variable in retry until",
        yaml: step("      - http: { url: 'http://x' }\n        retry: { until: { body: { id: '{{ later }}' } }, every: 1s, for: 5s }\n"), line: 6, column: 39,
        message: "undefined variable 'later' in '{{ later }}'"),
    DiagnosticCase(
        label: "a step's own capture read in its expect",
        yaml: step("      - http: { url: 'http://x' }\n        expect: { body: { id: '{{ id }}' } }\n        capture: { id: body.id }\n"), line: 6, column: 31,
        message: "undefined variable 'id' in '{{ id }}'"),
    DiagnosticCase(
        label: "status matched with a regex", yaml: step("      - http: { url: 'http://x' }\n        expect: { status: { matches: '^2' } }\n"), line: 6, column: 38,
        message: "status is a number; 'matches' never matches it", hint: "compare numbers with eq, ne, in, lt, le, gt or ge"),
    DiagnosticCase(
        label: "status checked for a string type", yaml: step("      - http: { url: 'http://x' }\n        expect: { status: { type: string } }\n"), line: 6, column: 35,
        message: "status is a number; 'type: string' never matches it"),
    DiagnosticCase(
        label: "length checked for a string type", yaml: step("      - http: { url: 'http://x' }\n        expect: { body: { a: { length: { type: string } } } }\n"), line: 6,
        column: 48, message: "'length' is a number; 'type: string' never matches it"),
    DiagnosticCase(
        label: "unknown with key of mock journal", yaml: step("      - mock: journal\n        with: { pth: /x }\n"), line: 6, column: 17,
        message: "unknown parameter 'pth' for 'mock: journal' of the mock host", hint: "did you mean 'path'?"),
    DiagnosticCase(
        label: "undefined variable in a form body", yaml: step("      - http: { url: 'http://x', form: { a: '{{ amont }}' } }\n"), line: 5, column: 45,
        message: "undefined variable 'amont' in '{{ amont }}'"),
    DiagnosticCase(
        label: "suite var reads one defined after it", yaml: "suite: s\nvars: { a: '{{ b }}', b: x }\ncases:\n  - name: c\n    steps:\n      - wait: 1ms\n", line: 2, column: 12,
        message: "undefined variable 'b' in '{{ b }}'"),
    DiagnosticCase(
        label: "random() wider than 64 digits", yaml: step("      - set: { v: '{{ random(1000000000) }}' }\n"), line: 5, column: 19,
        message: "random() takes a number of digits from 1 to 64, got 1000000000"),
    DiagnosticCase(
        label: "unknown payer action", yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - payer: pya\n", line: 6, column: 16,
        message: "unknown payer action 'pya' for provider 'acme'", hint: "did you mean 'pay'?"),
    DiagnosticCase(
        label: "unknown generic mock action", yaml: step("      - mock: clok\n"), line: 5, column: 15, message: "unknown mock action 'clok'", hint: "did you mean 'clock'?"),
    DiagnosticCase(
        label: "auth on a non-call step", yaml: step("      - wait: 1ms\n        auth: { secretKey: x }\n"), line: 6, column: 9,
        message: "'auth' overrides go with 'call' steps only"),
    DiagnosticCase(
        label: "with on an http step", yaml: step("      - http: { url: 'http://x' }\n        with: {}\n"), line: 6, column: 9, message: "'with' goes with call, payer, mock"),
    DiagnosticCase(
        label: "unknown outcome word", yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - call: querySession\n        expect: { outcome: suceeded }\n",
        line: 7, column: 28, message: "unknown outcome 'suceeded'", hint: "did you mean 'succeeded'?"),
    DiagnosticCase(
        label: "unknown error class", yaml: "suite: s\nprovider: acme\ncases:\n  - name: c\n    steps:\n      - call: querySession\n        expect: { error: { class: X } }\n",
        line: 7, column: 35, message: "unknown error class 'X'"),
    DiagnosticCase(
        label: "unknown requirement", yaml: "suite: s\ncases:\n  - name: c\n    requires: [mok]\n    steps: [{ wait: 1ms }]\n", line: 4, column: 15,
        message: "unknown requirement 'mok'"),
    DiagnosticCase(
        label: "YAML alias", yaml: "suite: s\nvars: { a: &x 1, b: *x }\ncases:\n  - name: c\n    steps: [{ wait: 1ms }]\n", line: 2, column: 18,
        message: "YAML aliases are not supported"),
    DiagnosticCase(
        label: "set with expect", yaml: step("      - set: { a: 1 }\n        expect: { status: 200 }\n"), line: 5, column: 9, message: "a 'set' step has no response to expect"),
    DiagnosticCase(
        label: "capture with from and regex", yaml: step("      - http: { url: 'http://x' }\n        capture: { a: { from: status, regex: 'x' } }\n"), line: 6, column: 23,
        message: "a capture takes 'from' or 'regex', not both"),
    DiagnosticCase(label: "missing included file", yaml: step("      - include: nowhere.yaml\n"), line: 5, column: 18, message: "cannot read included file 'nowhere.yaml'"),
    // What the mock would refuse for `mock: clock` is refused by lint (issue: lint passes what run refuses).
    DiagnosticCase(label: "clock without with", yaml: step("      - mock: clock\n"), line: 5, column: 15, message: "'mock: clock': expected a JSON object with 'advance'"),
    DiagnosticCase(
        label: "clock with empty with", yaml: step("      - mock: clock\n        with: {}\n"), line: 6, column: 15, message: "'mock: clock': expected a JSON object with 'advance'"),
    DiagnosticCase(
        label: "clock advance and set", yaml: step("      - mock: clock\n        with: { advance: 1m, set: '2026-01-01T00:00:00Z' }\n"), line: 6, column: 15,
        message: "give either 'advance' or 'set', not both"),
    DiagnosticCase(
        label: "clock advance templated and set", yaml: step("      - mock: clock\n        with: { advance: '{{ d }}', set: '2026-01-01T00:00:00Z' }\n"), line: 6, column: 15,
        message: "takes either 'advance' or 'set', not both"),
    DiagnosticCase(
        label: "clock advance out of range", yaml: step("      - mock: clock\n        with: { advance: 99999d }\n"), line: 6, column: 15,
        message: "is longer than the limit of 3650d"),
    DiagnosticCase(
        label: "clock advance backwards", yaml: step("      - mock: clock\n        with: { advance: -5m }\n"), line: 6, column: 15, message: "the clock only moves forward"),
]

@Suite("Suite diagnostics")
struct DiagnosticTests {
    @Test("each malformed suite gets its diagnostic at the exact location", arguments: diagnosticCases)
    func diagnostic(_ c: DiagnosticCase) throws {
        let loader = SuiteLoader(catalog: TestCatalog(), readFile: { path in throw CocoaLikeError(path: path) })
        let (suite, diagnostics) = loader.parse(text: c.yaml, file: "t.yaml")
        #expect(suite == nil, "an invalid suite must not load")
        let match = diagnostics.first { $0.message.contains(c.message) }
        let found = try #require(match, "no diagnostic containing \"\(c.message)\" in: \(diagnostics.map(\.description))")
        #expect(found.location == SourceLocation(file: "t.yaml", line: c.line, column: c.column), "\(found)")
        if let hint = c.hint { #expect(found.hint?.contains(hint) == true, "hint was \(found.hint ?? "nil")") }
    }

    @Test("there are at least thirty distinct diagnostics")
    func count() {
        #expect(Set(diagnosticCases.map(\.message)).count >= 30)
    }

    @Test("all problems of a file are reported together")
    func collectsAll() {
        let yaml =
            "suite: s\ncasse: 1\ncases:\n  - name: a\n    steps:\n      - wiat: 1s\n  - name: b\n    steps:\n      - http: { url: 'http://x' }\n        expect: { staus: 200 }\n"
        let (_, diagnostics) = SuiteLoader(catalog: TestCatalog()).parse(text: yaml, file: "t.yaml")
        let lines = diagnostics.compactMap { $0.location?.line }.sorted()
        #expect(lines.contains(2) && lines.contains(6) && lines.contains(10), "\(diagnostics)")
    }

    @Test("variables defined by vars, set:, captures of earlier steps and --var are all readable")
    func definedVariablesPass() {
        let yaml =
            "suite: s\nvars: { base: 'http://x' }\ncases:\n  - name: c\n    vars: { path: '{{ base }}/p' }\n    steps:\n      - set: { n: 1, m: '{{ n }}' }\n      - http: { url: '{{ path }}/{{ m }}/{{ fromCLI }}' }\n        capture: { id: body.id }\n      - http: { url: '{{ mock.url }}/{{ id }}/{{ target.kind }}' }\n        expect: { body: { a: '{{ now(\"+1m\", \"unix\") }}' } }\n"
        var loader = SuiteLoader(catalog: TestCatalog())
        loader.externalVariables = ["fromCLI"]
        let (suite, diagnostics) = loader.parse(text: yaml, file: "v.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(suite != nil)
        let (_, without) = SuiteLoader(catalog: TestCatalog()).parse(text: yaml, file: "v.yaml")
        #expect(without.map(\.message) == ["undefined variable 'fromCLI' in '{{ fromCLI }}'"])
    }

    @Test("a valid suite loads with its locations")
    func validSuite() throws {
        let yaml =
            "suite: ok\ntags: [t]\ncases:\n  - name: c\n    vars: { a: x }\n    steps:\n      - http: { url: 'http://x/{{ a }}' }\n        expect: { status: 200, body: { a.b: { gt: 1 } } }\n        capture: { v: body.a }\n"
        let (suite, diagnostics) = SuiteLoader(catalog: TestCatalog()).parse(text: yaml, file: "t.yaml")
        #expect(diagnostics.isEmpty)
        let s = try #require(suite)
        #expect(s.cases[0].steps[0].location == SourceLocation(file: "t.yaml", line: 7, column: 9))
        #expect(s.cases[0].steps[0].expect?.body.first?.check.matchers.first?.location == SourceLocation(file: "t.yaml", line: 8, column: 51))
    }
}

/// A read failure for the in-memory loader.
struct CocoaLikeError: Error { let path: String }
