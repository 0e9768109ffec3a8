import PayCheckCore
import Foundation
import PayCheckMock
import PayCheckProviders
import Testing

@Suite("Idempotency store: replay, conflicts, concurrency")
struct IdempotencyStoreTests {
    /// The key `key-1` of provider `acme`, default scope.
    private let key = IdempotencyKey(provider: "acme", scope: .default, key: "key-1")

    /// A fingerprint of a `POST /acme/payments` with `body`.
    private func request(_ body: String) -> RequestFingerprint {
        RequestFingerprint(method: "POST", path: "/acme/payments", body: Array(body.utf8))
    }

    @Test("the same key and request replay the stored response without running the operation again")
    func replay() async throws {
        let store = IdempotencyStore<HTTPResponseData>()
        let runs = Recorder<Int>()
        let operation = { @Sendable () async -> HTTPResponseData in
            runs.append(1)
            let number = runs.count
            return HTTPResponseData.json(status: 201, #"{"id":"pay_\#(number)"}"#)
        }
        let first = await store.perform(self.key, fingerprint: self.request(#"{"amount":10}"#), operation)
        let second = await store.perform(self.key, fingerprint: self.request(#"{"amount":10}"#), operation)
        guard case .created(let created) = first, case .replayed(let replayed) = second else {
            Issue.record("expected created then replayed, got \(first) and \(second)")
            return
        }
        #expect(runs.count == 1)
        #expect(replayed.status == 201)
        #expect(replayed.body == created.body)
        #expect(String(decoding: replayed.body, as: UTF8.self) == #"{"id":"pay_1"}"#)
        #expect(replayed.headers.map(\.name) == ["Content-Type"])
    }

    @Test("the same key with a different request is a conflict; other providers and scopes are separate")
    func differentRequest() async throws {
        let store = IdempotencyStore<Int>()
        _ = await store.perform(self.key, fingerprint: self.request("a")) { 1 }
        let other = await store.perform(self.key, fingerprint: self.request("b")) { 2 }
        guard case .conflict(.differentRequest) = other else {
            Issue.record("expected a different-request conflict, got \(other)")
            return
        }
        let otherProvider = IdempotencyKey(provider: "zeta", scope: .default, key: "key-1")
        let otherScope = IdempotencyKey(provider: "acme", scope: try #require(ClockScope("run-b")), key: "key-1")
        #expect(await store.perform(otherProvider, fingerprint: self.request("b")) { 3 }.stored == 3)
        #expect(await store.perform(otherScope, fingerprint: self.request("b")) { 4 }.stored == 4)
        #expect(store.count == 3)
        store.reset()
        #expect(store.count == 0)
    }

    @Test("a key whose first request is still in flight is a conflict, whatever the second request")
    func inFlight() {
        let store = IdempotencyStore<Int>()
        guard case .proceed(let ticket) = store.claim(self.key, fingerprint: self.request("a")) else {
            Issue.record("the first claim should proceed")
            return
        }
        guard case .conflict(.inFlight) = store.claim(self.key, fingerprint: self.request("a")) else {
            Issue.record("expected an in-flight conflict")
            return
        }
        guard case .conflict(.differentRequest) = store.claim(self.key, fingerprint: self.request("b")) else {
            Issue.record("expected a different-request conflict")
            return
        }
        store.complete(ticket, with: 7)
        guard case .replay(7) = store.claim(self.key, fingerprint: self.request("a")) else {
            Issue.record("expected the stored value to replay")
            return
        }
    }

    @Test("an operation that throws leaves the key unused")
    func failureReleases() async throws {
        let store = IdempotencyStore<Int>()
        await #expect(throws: FakeFailure.self) {
            _ = try await store.perform(self.key, fingerprint: self.request("a")) { throw FakeFailure() }
        }
        #expect(store.count == 0)
        #expect(await store.perform(self.key, fingerprint: self.request("a")) { 5 }.stored == 5)
    }

    @Test("100 concurrent requests with one key create exactly one resource")
    func concurrency() async throws {
        let store = IdempotencyStore<HTTPResponseData>()
        let resources = Recorder<Int>()
        let key = self.key
        let fingerprint = self.request("same")
        let outcomes = await withTaskGroup(of: String.self, returning: [String: Int].self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let outcome = await store.perform(key, fingerprint: fingerprint) {
                        await Task.yield()
                        resources.append(1)
                        await Task.yield()
                        return HTTPResponseData.json(status: 201, #"{"id":"pay_1"}"#)
                    }
                    switch outcome {
                    case .created: return "created"
                    case .replayed: return "replayed"
                    case .conflict(let conflict): return "\(conflict)"
                    }
                }
            }
            var counts: [String: Int] = [:]
            for await name in group { counts[name, default: 0] += 1 }
            return counts
        }
        #expect(resources.count == 1)
        #expect(outcomes["created"] == 1)
        #expect((outcomes["replayed"] ?? 0) + (outcomes["inFlight"] ?? 0) == 99)
        #expect(outcomes["differentRequest"] == nil)
    }
}
