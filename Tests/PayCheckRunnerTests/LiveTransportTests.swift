import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import PayCheckTestSupport
import Synchronization
import Testing

/// A live target's transport: retries of service failures only, `Retry-After`, a host found unreachable, the rate
/// and concurrency limits — on a virtual clock, against a scripted transport.
@Suite("Live transport: retries, reachability, limits")
struct LiveTransportTests {
    /// Answers from a script, one entry per attempt (the last repeats), and records when each attempt started.
    final class Scripted: HTTPTransport {
        enum Step: Sendable { case status(Int, retryAfter: String?), fail(TransportError.Cause) }
        private struct State { var script: [Step]; var starts: [Date] = []; var inFlight = 0; var maxInFlight = 0 }
        private let state: Mutex<State>
        let clock: VirtualClock
        init(_ script: [Step], clock: VirtualClock) {
            state = Mutex(State(script: script))
            self.clock = clock
        }
        var starts: [Date] { state.withLock { $0.starts } }
        var maxInFlight: Int { state.withLock { $0.maxInFlight } }
        func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
            let step = state.withLock { s -> Step in
                s.starts.append(clock.now())
                s.inFlight += 1
                s.maxInFlight = max(s.maxInFlight, s.inFlight)
                return s.script.count > 1 ? s.script.removeFirst() : s.script[0]
            }
            // Stay in flight across a virtual second, so overlapping sends would show.
            try await clock.sleep(seconds: 1)
            state.withLock { $0.inFlight -= 1 }
            switch step {
            case .status(let status, let retryAfter):
                return HTTPResponseData(status: status, headers: retryAfter.map { [("Retry-After", $0)] } ?? [], body: [])
            case .fail(let cause):
                throw TransportError(cause, "\(request.method) \(request.url): \(cause.rawValue)")
            }
        }
    }

    /// The seconds between consecutive starts.
    static func gaps(_ starts: [Date]) -> [Double] {
        zip(starts.dropFirst(), starts).map { later, earlier in later.timeIntervalSince(earlier) }
    }

    static let request = HTTPRequestData(method: "POST", url: "https://sandbox.example/v1/payments", headers: [], body: [])

    static func live(_ script: [Scripted.Step], endpoint: LiveTarget.Endpoint = .init()) -> (LiveTransport, Scripted, VirtualClock) {
        let clock = VirtualClock()
        let scripted = Scripted(script, clock: clock)
        return (LiveTransport(base: scripted, provider: "acme", endpoint: endpoint, retry: LiveTarget.RetryPolicy(), clock: clock), scripted, clock)
    }

    @Test("503 and 429 are retried with a doubling backoff; Retry-After wins, capped; the last answer is returned")
    func retriesServiceAnswers() async throws {
        let (live, scripted, _) = Self.live([.status(503, retryAfter: nil), .status(429, retryAfter: "3"), .status(200, retryAfter: nil)])
        #expect(try await live.send(Self.request, timeout: 5).status == 200)
        // 1 s in flight, then the wait.
        let expected: [Double] = [1.5, 4]
        #expect(Self.gaps(scripted.starts) == expected)
        let (capped, cappedScript, _) = Self.live([.status(429, retryAfter: "3600"), .status(502, retryAfter: nil), .status(502, retryAfter: nil)])
        #expect(try await capped.send(Self.request, timeout: 5).status == 502)
        let cappedExpected: [Double] = [11, 2]
        #expect(Self.gaps(cappedScript.starts) == cappedExpected)
    }

    @Test("an answer that is only not what a suite expects is never retried", arguments: [200, 201, 400, 401, 404, 409, 422])
    func conformanceAnswersAreNotRetried(_ status: Int) async throws {
        let (live, scripted, _) = Self.live([.status(status, retryAfter: "1")])
        #expect(try await live.send(Self.request, timeout: 5).status == status)
        #expect(scripted.starts.count == 1)
    }

    @Test("a host that cannot be reached after every retry fails the later requests at once, with the reason")
    func unreachableHost() async throws {
        let (live, scripted, _) = Self.live([.fail(.connect)])
        let first = await #expect(throws: TransportError.self) { try await live.send(Self.request, timeout: 5) }
        #expect(first?.cause == .connect && first?.message.hasSuffix("(after 3 attempts)") == true)
        #expect(scripted.starts.count == 3)
        let later = await #expect(throws: TransportError.self) { try await live.send(Self.request, timeout: 5) }
        #expect(later?.cause == .connect && later?.message.contains("not sent: acme's host could not be reached (3 attempts)") == true, "\(String(describing: later))")
        #expect(scripted.starts.count == 3)
    }

    @Test("a host that takes the connection but never answers, every retry, fails the later requests at once as a timeout")
    func hangingHost() async throws {
        let (live, scripted, _) = Self.live([.fail(.timeout)])
        let first = await #expect(throws: TransportError.self) { try await live.send(Self.request, timeout: 5) }
        #expect(first?.cause == .timeout && first?.message.hasSuffix("(after 3 attempts)") == true)
        let later = await #expect(throws: TransportError.self) { try await live.send(Self.request, timeout: 5) }
        #expect(later?.cause == .timeout && later?.message.contains("not sent: acme's host did not answer in time (3 attempts of 5s)") == true, "\(String(describing: later))")
        #expect(scripted.starts.count == 3, "the later request waited on the host again")
    }

    @Test("a timeout is retried and stays a timeout; a TLS failure is not retried")
    func timeoutsAndTLS() async throws {
        let (live, scripted, _) = Self.live([.fail(.timeout), .status(200, retryAfter: nil)])
        #expect(try await live.send(Self.request, timeout: 5).status == 200 && scripted.starts.count == 2)
        let (tls, tlsScript, _) = Self.live([.fail(.tls)])
        await #expect(throws: TransportError.self) { try await tls.send(Self.request, timeout: 5) }
        #expect(tlsScript.starts.count == 1)
        // The next request to the host fails at once with the reason, without another handshake.
        let later = await #expect(throws: TransportError.self) { try await tls.send(Self.request, timeout: 5) }
        #expect(tlsScript.starts.count == 1 && later?.cause == .tls && later?.message.contains("not sent: acme's host: ") == true, "\(later?.message ?? "")")
    }

    @Test("a TLS failure says BoringSSL's reason without the build's source paths, and how to trust a private CA")
    func tlsFailureWords() {
        let dump =
            "handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at "
            + "/work/main/.build/checkouts/swift-nio-ssl/Sources/CNIOBoringSSL/ssl/handshake.cc:393]))"
        let words = AsyncHTTPTransport.tlsFailure(dump)
        #expect(words.hasPrefix("the TLS handshake failed (CERTIFICATE_VERIFY_FAILED); the host's certificate is not trusted"), "\(words)")
        #expect(words.contains("tls: { ca: <bundle.pem> }") && !words.contains(".build") && !words.contains("handshake.cc"))
        #expect(AsyncHTTPTransport.tlsFailure("handshakeFailed(unexpected EOF) at /x/y.cc:1") == "the TLS handshake failed (handshakeFailed(unexpected EOF))")
    }

    @Test("a rate limit spaces the requests; a concurrency limit keeps them from overlapping")
    func limits() async throws {
        var endpoint = LiveTarget.Endpoint()
        endpoint.rateLimit = LiveTarget.RateLimit(requests: 2, seconds: 1)
        endpoint.concurrency = 1
        let (live, scripted, clock) = Self.live([.status(200, retryAfter: nil)], endpoint: endpoint)
        let start = clock.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await live.send(Self.request, timeout: 5) } }
            try await group.waitForAll()
        }
        #expect(scripted.maxInFlight == 1)
        let gaps = Self.gaps(scripted.starts)
        #expect(gaps.count == 3 && gaps.allSatisfy { $0 >= 0.5 } && scripted.starts[0] == start, "\(gaps)")
    }

    @Test("a replay answers a case's requests in order; another request, or one too many, is an error naming the recorded one")
    func replay() async throws {
        func exchange(_ method: String, _ url: String, _ status: Int) -> Exchange {
            Exchange(
                method: method, url: url, requestHeaders: [], requestBody: "", status: status, responseHeaders: [("Content-Type", "application/json")],
                responseBody: #"{"ok":true}"#, duration: 0.1, error: nil)
        }
        let record = RunRecording.Case(
            file: "s.yaml", suite: "s", provider: "acme", name: "c", verdict: .passed, skipReason: nil, random: [],
            exchanges: [exchange("POST", "https://sandbox.example/v1/payments", 201), exchange("GET", "https://sandbox.example/v1/payments/\(Redactor.mask)?x=1", 200)])
        let replay = ReplayTransport(record, directory: "rec")
        // Another host is the same exchange; a masked token stands for any value.
        let created = try await replay.send(HTTPRequestData(method: "POST", url: "http://other.host/v1/payments", headers: [], body: []), timeout: 1)
        #expect(created.status == 201 && created.body == Array(#"{"ok":true}"#.utf8))
        #expect(try await replay.send(HTTPRequestData(method: "GET", url: "https://x/v1/payments/tok_123?x=1", headers: [], body: []), timeout: 1).status == 200)
        let extra = await #expect(throws: TransportError.self) {
            try await replay.send(HTTPRequestData(method: "GET", url: "https://x/v1/payments", headers: [], body: []), timeout: 1)
        }
        #expect(extra?.message == "replay of rec: this case now sends GET /v1/payments, but the recording has only 2 exchange(s) for it")
        let other = ReplayTransport(record, directory: "rec")
        let changed = await #expect(throws: TransportError.self) {
            try await other.send(HTTPRequestData(method: "POST", url: "https://x/v2/payments", headers: [], body: []), timeout: 1)
        }
        #expect(changed?.message == "replay of rec: exchange 1 of this case is now POST /v2/payments; the recording has POST /v1/payments")
    }

    @Test("a replay compares each request's body with the recording, field by field, but for the provider's noise and masked values")
    func replayComparesBodies() async throws {
        let recordedBody =
            #"{"amount":{"currency":"EUR","value":"10.00"},"card":"••••••••••••1111","key":"\#(Redactor.mask)","createdAt":"2026-01-01T00:00:00Z","items":[{"sku":"A"}]}"#
        let record = RunRecording.Case(
            file: "s.yaml", suite: "s", provider: "acme", name: "c", verdict: .passed, skipReason: nil, random: [],
            exchanges: [
                Exchange(
                    method: "POST", url: "https://sandbox.example/v1/payments", requestHeaders: [], requestBody: recordedBody, status: 201,
                    responseHeaders: [], responseBody: "{}", duration: 0.1, error: nil)
            ])
        func send(_ body: String, noise: [String] = ["*At"]) async throws -> HTTPResponseData {
            let json = [(name: "Content-Type", value: "application/json")]
            return try await ReplayTransport(record, directory: "rec", noise: noise)
                .send(HTTPRequestData(method: "POST", url: "http://mock/v1/payments", headers: json, body: Array(body.utf8)), timeout: 1)
        }
        // Another timestamp (noise), the real card number and key (masked in the recording), another key order: the same.
        let same = #"{"items":[{"sku":"A"}],"createdAt":"2026-11-28T10:00:00Z","key":"sk_live_x","card":"4111111111111111","amount":{"value":"10.00","currency":"EUR"}}"#
        #expect(try await send(same).status == 201)
        let cases: [(String, String)] = [
            (same.replacingOccurrences(of: "10.00", with: "12.00"), #"'amount.value' = "12.00", where the recording has "10.00""#),
            (same.replacingOccurrences(of: "4111111111111111", with: "4000000000000002"), #"'card' = "4000000000000002", where the recording has "••••••••••••1111""#),
            (same.replacingOccurrences(of: #"{"sku":"A"}"#, with: #"{"sku":"A"},{"sku":"B"}"#), #"'items[1].sku' = "B", which the recording does not have"#),
            (same.replacingOccurrences(of: #""key":"sk_live_x","#, with: ""), #"no 'key', where the recording has "••••••""#),
        ]
        for (body, difference) in cases {
            let error = await #expect(throws: TransportError.self) { try await send(body) }
            #expect(error?.message == "replay of rec: exchange 1 of this case (POST /v1/payments) now sends " + difference, "\(body)")
        }
        // A 15-digit card (Amex) masks eleven digits: not a multiple of the mask's six, still any number but its last four.
        let amex = #"{"card":"•••••••••••0005"}"#
        let amexRecord = RunRecording.Case(
            file: "s.yaml", suite: "s", provider: "acme", name: "c", verdict: .passed, skipReason: nil, random: [],
            exchanges: [
                Exchange(
                    method: "POST", url: "https://sandbox.example/v1/payments", requestHeaders: [], requestBody: amex, status: 201, responseHeaders: [],
                    responseBody: "{}", duration: 0.1, error: nil)
            ])
        let amexSent = HTTPRequestData(
            method: "POST", url: "http://mock/v1/payments", headers: [(name: "Content-Type", value: "application/json")],
            body: Array(#"{"card":"378282246310005"}"#.utf8))
        #expect(try await ReplayTransport(amexRecord, directory: "rec").send(amexSent, timeout: 1).status == 201)
        // Without the noise rule the timestamp is a difference too.
        let timed = await #expect(throws: TransportError.self) { try await send(same, noise: []) }
        #expect(timed?.message.contains("'createdAt' = \"2026-11-28T10:00:00Z\"") == true)
    }

    @Test("a service failure that outlasts the live target's retries is an error (exit 3), not a conformance failure")
    func persistentServiceFailureIsAnError() async throws {
        var target = LiveTarget(name: "flaky")
        target.retry.attempts = 2
        var configuration = RunConfiguration()
        configuration.target = .live(target)
        configuration.environment = ["PAYCHECK_MOLLIE_API_KEY": "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM"]
        let clock = VirtualClock()
        let runner = Runner(
            configuration: configuration, providers: MockRegistry.providers, transport: Scripted([.status(503, retryAfter: nil)], clock: clock),
            clock: clock)
        let text = "suite: s\nprovider: mollie\ncases:\n  - name: methods\n    steps:\n      - call: listMethods\n        expect: { status: 200 }\n"
        let suite = try #require(SuiteLoader(catalog: MockRegistry.providers).parse(text: text, file: "s.yaml").0)
        let plan = RunPlan(suites: [suite], configuration: configuration, hasProviderCredentials: runner.hasCredentials)
        let result = await runner.run(plan, controlURL: nil)
        let step = try #require(result.suites.first?.cases.first?.failingStep)
        #expect(result.exitCode == 3 && step.verdict == .error, "\(step.error ?? "") \(step.mismatches.map(\.message))")
        #expect(step.error?.contains("the provider's service failed (HTTP 503, class S") == true, "\(step.error ?? "")")
        // The transcript shows the retried attempt, with why and how long the run waited, above the last one.
        let retries = step.exchanges.first?.retries ?? []
        #expect(step.exchanges.count == 1 && retries.count == 1 && retries.first?.hasPrefix("attempt 1: HTTP 503, retried after ") == true, "\(retries)")
    }
}
