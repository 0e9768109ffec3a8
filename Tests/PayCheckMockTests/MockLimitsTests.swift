import PayCheckCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import PayCheckMock
import Testing

@Suite("Bounded resources: the journal, key-value store and bodies stay within MockLimits")
struct MockLimitsTests {
    static func record(_ path: String, bytes: Int) -> RecordedRequest {
        RecordedRequest(method: "POST", path: path, query: "", headers: [], body: Array(repeating: 0x61, count: bytes), receivedAt: fixedBase)
    }

    @Test("the journal evicts its oldest records past its entry and byte bounds, and counts them")
    func journalBounds() {
        let journal = RequestJournal(capacity: 3, byteCapacity: 10_000)
        for index in 0..<5 { journal.record(Self.record("/r\(index)", bytes: 10)) }
        #expect(journal.entries().map(\.path) == ["/r2", "/r3", "/r4"])
        #expect(journal.usage.evicted == 2)
        let bytes = RequestJournal(capacity: 100, byteCapacity: 2_500)
        for index in 0..<5 { bytes.record(Self.record("/b\(index)", bytes: 1_000)) }
        #expect(bytes.entries().map(\.path) == ["/b3", "/b4"])
        #expect(bytes.usage.evicted == 3 && bytes.usage.bytes <= 2_500)
        // One record larger than the whole bound is still kept, alone.
        bytes.record(Self.record("/huge", bytes: 5_000))
        #expect(bytes.entries().map(\.path) == ["/huge"])
    }

    @Test("the key-value store evicts the oldest values past its bounds; limits shows the eviction")
    func keyValueBounds() async throws {
        var limits = MockLimits()
        limits.keyValueEntries = 2
        let host = MockHost(providers: [], clock: fixedClock(), limits: limits)
        try await withRouter(host) { client in
            for index in 0..<3 {
                _ = try await client.send(.put, "/__paycheck/kv/k\(index)", body: #"{"n":\#(index)}"#)
            }
            // Storing k1 again makes it the newest, so k2 is evicted next.
            _ = try await client.send(.put, "/__paycheck/kv/k1", body: #"{"n":10}"#)
            _ = try await client.send(.put, "/__paycheck/kv/k3", body: #"{"n":3}"#)
            #expect(try await client.send(.get, "/__paycheck/kv/k0").status == .notFound)
            #expect(try await client.send(.get, "/__paycheck/kv/k2").status == .notFound)
            #expect(try await client.send(.get, "/__paycheck/kv/k1").status == .ok)
            #expect(try await client.send(.get, "/__paycheck/kv/k3").status == .ok)
            let usage = try await client.send(.get, "/__paycheck/limits").object()
            let kv = (usage["usage"] as? [String: Any])?["kv"] as? [String: Any]
            #expect(kv?["evicted"] as? Int == 2 && kv?["entries"] as? Int == 2)
            #expect((usage["limits"] as? [String: Any])?["keyValueEntries"] as? Int == 2)
        }
    }

    @Test("a body over the limit is answered 413 in the provider's own error shape")
    func bodyLimitInProviderShape() async throws {
        var limits = MockLimits()
        limits.requestBodyBytes = 1_024
        let host = MockHost(providers: MockRegistry.builtIn, clock: fixedClock(), limits: limits)
        let big = "{\"description\":\"" + String(repeating: "x", count: 2_000) + "\"}"
        try await withRouter(host) { client in
            let mollie = try await client.send(.post, "/mollie/v2/payments", body: big, headers: [.contentType: "application/json"])
            #expect(mollie.status == .contentTooLarge)
            #expect(mollie.headers[.contentType] == "application/hal+json")
            #expect(mollie.object()["title"] as? String == "Error" && (mollie.object()["detail"] as? String)?.contains("1024 bytes") == true)
            let yuno = try await client.send(.post, "/yuno/v1/payments", body: big, headers: [.contentType: "application/json"])
            #expect(yuno.object()["code"] as? String == "REQUEST_TOO_LARGE")
            let placetopay = try await client.send(.post, "/placetopay/api/session", body: big, headers: [.contentType: "application/json"])
            #expect((placetopay.object()["status"] as? [String: Any])?["status"] as? String == "FAILED")
            let khipu = try await client.send(.post, "/khipu/v3/payments", body: big, headers: [.contentType: "application/json"])
            #expect(khipu.object()["status"] as? Int == 413)
            let control = try await client.send(.post, "/__paycheck/kv", body: big)
            #expect(control.status == .contentTooLarge && control.errorMessage?.contains("exceeds the mock's limit") == true)
        }
    }

    @Test("a body that stops arriving is answered 408 after the body read timeout; a whole one is not held")
    func slowBodyTimesOut() async throws {
        var limits = MockLimits()
        limits.bodyReadTimeoutSeconds = 1
        let host = MockHost(providers: MockRegistry.builtIn, clock: fixedClock(), limits: limits)
        try await withRunningMock(host) { baseURL in
            let port = try #require(URLComponents(string: baseURL)?.port)
            let head = "PUT /__paycheck/kv/slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            let started = ContinuousClock.now
            let stalled = try await Self.exchange(port: port, head + "Content-Length: 10\r\n\r\n{\"a\"")
            #expect(stalled.hasPrefix("HTTP/1.1 408"), "\(stalled)")
            #expect(stalled.contains("did not arrive within 1s"), "\(stalled)")
            #expect(ContinuousClock.now - started >= .seconds(1))
            let whole = try await Self.exchange(port: port, head + "Content-Length: 7\r\n\r\n{\"a\":1}")
            #expect(whole.hasPrefix("HTTP/1.1 2"), "\(whole)")
        }
    }

    /// Writes `request` on a new connection and returns the first chunk of what comes back.
    static func exchange(port: Int, _ request: String) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: request))
            var iterator = inbound.makeAsyncIterator()
            return try await iterator.next().map { String(buffer: $0) } ?? ""
        }
    }

    @Test("each provider mock keeps at most providerResources sessions or payments, evicting the oldest")
    func providerStateBounds() async throws {
        var limits = MockLimits()
        limits.providerResources = 2
        let host = MockHost(providers: MockRegistry.builtIn, clock: fixedClock(), limits: limits)
        let key = "Bearer test_PayCheckMollieMockKey0123456789ab"
        try await withRouter(host) { client in
            var ids: [String] = []
            for _ in 0..<3 {
                let headers: HTTPFields = [.authorization: key, .contentType: "application/json"]
                let created = try await client.send(
                    .post, "/mollie/v2/payments",
                    body: #"{"amount":{"currency":"EUR","value":"1.00"},"description":"bounded","redirectUrl":"https://m.test/r"}"#,
                    headers: headers)
                ids.append(try #require(created.object()["id"] as? String))
            }
            let headers: HTTPFields = [.authorization: key]
            #expect(try await client.send(.get, "/mollie/v2/payments/\(ids[0])", headers: headers).status == .notFound)
            #expect(try await client.send(.get, "/mollie/v2/payments/\(ids[2])", headers: headers).status == .ok)
            let usage = try await client.send(.get, "/__paycheck/limits").object()
            let mollie = ((usage["usage"] as? [String: Any])?["providers"] as? [String: Any])?["mollie"] as? [String: Any]
            #expect(mollie?["entries"] as? Int == 2 && mollie?["evicted"] as? Int == 1)
        }
    }
}
