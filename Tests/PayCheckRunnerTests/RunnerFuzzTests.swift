import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckRunner
import PayCheckTestSupport
import Testing

/// Suites that load but carry hostile values — huge, tiny, negative and non-finite numbers, odd strings, impossible
/// ports and dates — run through the runner against the embedded mock: every case ends with a verdict and nothing
/// traps. `PAYCHECK_FUZZ_ITERATIONS` sets how many suites (default 40 in CI).
@Suite("Runner fuzzing")
struct RunnerFuzzTests {
    /// The seed, with `#N` (a number), `#S` (a string) and `#D` (a duration) holes.
    static let seed = """
        suite: Runner fuzz #I
        provider: placetopay
        cases:
          - name: a session with hostile values
            steps:
              - call: createSession
                with:
                  payment: { reference: "#S", description: "#S", amount: { currency: "#S", total: #N } }
                  returnUrl: "#S"
                  expiration: "#S"
                capture: { requestId: body.requestId }
                timeout: #D
              - payer: pay
                with: { requestId: "{{ requestId }}", card: "#S", amount: #N }
              - call: transaction
                with: { internalReference: #N, action: "#S", amount: { currency: COP, total: #N } }
              - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/#S", query: { n: #N }, json: { a: #N, b: "#S" } }
                expect: { status: { lt: #N }, body: { a: { length: { gt: #N } } } }
              - mock: clock
                with: { advance: #D }
              # Templated, so lint (which refuses literal hostile fault arguments) lets the mock check them at run time.
              - set: { faultCount: #N, faultDelay: #N }
              - mock: fault
                with: { path: "/__paycheck/echo/f", count: "{{ faultCount }}", kind: delay, delayMs: "{{ faultDelay }}" }
              - http: { url: "{{ mock.url }}/__paycheck/echo/f" }
                retry: { until: { status: 200 }, every: #D, for: #D }
                timeout: 1s
        """

    static let numbers = ["0", "-1", "1e308", "-1e308", "1e-300", "9223372036854775807", "-9223372036854775808", "65536", "0.5", "1"]
    static let strings = ["", "x", "http://127.0.0.1:65536/r", "2026-99-99T00:00:00Z", "4110760000000081", "%ff%00", "../../..", "ñ😀", "COP", "reverse"]
    static let durations = ["1ms", "0s", "1s", "3650d", "31m", "100ms"]

    @Test("hostile values in loadable suites never crash the runner or the mock")
    func hostileValues() async throws {
        let count = ProcessInfo.processInfo.environment["PAYCHECK_FUZZ_ITERATIONS"].flatMap(Int.init).map { min($0, 500) } ?? 40
        var random = SplitMix(seed: 0xF00D)
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        var files: [(String, String)] = []
        for index in 0..<count {
            var text = Self.seed.replacingOccurrences(of: "#I", with: String(index))
            while let hole = text.range(of: #"#[NSD]"#, options: .regularExpression) {
                let value =
                    switch text[hole] {
                    case "#N": pick(Self.numbers)
                    case "#S": pick(Self.strings)
                    default: pick(Self.durations)
                    }
                text.replaceSubrange(hole, with: value)
            }
            files.append(("fuzz\(index).yaml", text))
        }
        var configuration = RunConfiguration()
        configuration.jobs = 4
        configuration.runTimeout = 600
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
        var loadable: [Suite] = []
        for file in files {
            if let suites = try? run.load([file]) { loadable += suites }
        }
        #expect(loadable.count > count / 4, "many mutated suites should load, got \(loadable.count) of \(count)")
        let (result, _) = try await run.run(loadable)
        let cases = result.suites.flatMap(\.cases)
        #expect(cases.count == loadable.count)
        #expect(cases.allSatisfy { [.passed, .failed, .error, .skipped].contains($0.verdict) })
    }
}
