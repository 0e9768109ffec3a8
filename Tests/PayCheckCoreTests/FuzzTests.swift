import PayCheckCore
import PayCheckTestSupport
import Testing

let seedSuite = """
    suite: Fuzz seed
    provider: acme
    tags: [a, b]
    vars:
      reference: "ORDER-{{ uuid() }}"
      n: 3
    cases:
      - name: first
        requires: [mock]
        steps:
          - call: createSession
            with: { payment: { reference: "{{ reference }}", amount: { currency: COP, total: 1 } } }
            auth: { secretKey: wrong }
            expect:
              status: { in: [200, 201] }
              headers: { Content-Type: { contains: json } }
              body:
                status.status: OK
                requestId: { type: integer, gt: 0 }
                processUrl: { matches: '/session/\\d+/[0-9a-f]{32}$' }
              outcome: pending
              error: { class: A, code: "102" }
            capture: { requestId: body.requestId, tok: { from: header.x-token, secret: true } }
            retry: { until: { status: 200 }, every: 10ms, for: 1s }
            timeout: 2s
          - payer: pay
            with: { requestId: "{{ requestId }}", card: "4110760000000081" }
          - http:
              method: POST
              url: "http://x/{{ requestId }}"
              query: { a: 1 }
              form: { b: "{{ now('+5m', 'unix') }}" }
          - set: { x: "{{ random(4) }}" }
          - wait: 10ms
          - mock: clock
            with: { advance: 31m }
      - name: second
        xfail: known
        steps:
          - http: { url: "http://y", body: "<P>{{ env('HOME') }}</P>" }
            expect: { body: { "$.a[0]": { length: { ge: 1 } } } }
    """

@Suite("Loader robustness")
struct FuzzTests {
    @Test("thousands of randomly mutated suites never crash the loader and every diagnostic is located in the file")
    func mutatedSuites() {
        var rng = SplitMix(seed: 20_261_122)
        let loader = SuiteLoader(catalog: TestCatalog(), readFile: { _ in "steps: []" })
        let alphabet = Array(":{}[]-'\"\t\n&*!|>%@#?,  {{}}\\\u{0}é😀")
        let lines = seedSuite.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var parsedWithErrors = 0
        for iteration in 0..<4000 {
            var text = Array(seedSuite)
            switch iteration % 6 {
            case 0:
                for _ in 0..<Int.random(in: 1...5, using: &rng) where !text.isEmpty {
                    text.remove(at: Int.random(in: 0..<text.count, using: &rng))
                }
            case 1:
                for _ in 0..<Int.random(in: 1...5, using: &rng) {
                    text.insert(alphabet.randomElement(using: &rng) ?? " ", at: Int.random(in: 0...text.count, using: &rng))
                }
            case 2:
                text = Array(text.prefix(Int.random(in: 0...text.count, using: &rng)))
            case 3:
                var ls = lines
                let i = Int.random(in: 0..<ls.count, using: &rng), j = Int.random(in: 0..<ls.count, using: &rng)
                ls.swapAt(i, j)
                text = Array(ls.joined(separator: "\n"))
            case 4:
                var ls = lines
                let i = Int.random(in: 0..<ls.count, using: &rng)
                ls.insert(ls[i], at: Int.random(in: 0...ls.count, using: &rng))
                text = Array(ls.joined(separator: "\n"))
            default:
                for _ in 0..<Int.random(in: 1...3, using: &rng) where !text.isEmpty {
                    text[Int.random(in: 0..<text.count, using: &rng)] = alphabet.randomElement(using: &rng) ?? " "
                }
            }
            let source = String(text)
            let (_, diagnostics) = loader.parse(text: source, file: "fuzz.yaml")
            if diagnostics.hasErrors { parsedWithErrors += 1 }
            let lineCount = source.split(separator: "\n", omittingEmptySubsequences: false).count
            for d in diagnostics {
                guard let location = d.location else { continue }
                #expect(location.line >= 1 && location.line <= lineCount + 1, "iteration \(iteration): \(d)")
                #expect(location.column >= 1, "iteration \(iteration): \(d)")
                #expect(!d.message.isEmpty)
            }
        }
        #expect(parsedWithErrors > 1000, "mutations should mostly produce diagnostics, got \(parsedWithErrors)")
    }

    @Test("the unmutated seed suite is valid")
    func seedIsValid() {
        let (suite, diagnostics) = SuiteLoader(catalog: TestCatalog()).parse(text: seedSuite, file: "seed.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(suite?.cases.count == 2)
    }
}
