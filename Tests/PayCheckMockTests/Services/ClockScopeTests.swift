import PayCheckCore
import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing
import NIOFoundationEssentialsCompat

@Suite("Clock scopes: runs sharing one mock do not see each other's time travel")
struct ClockScopeTests {
    /// Headers naming clock scope `id`.
    private func scoped(_ id: String) -> HTTPFields {
        [HTTPFields.Element.Name(ClockScope.headerName)!: id]
    }

    /// The `now` of `GET /__paycheck/clock` with `headers`.
    private func now(_ client: any TestClientProtocol, _ headers: HTTPFields = [:]) async throws -> String? {
        try await client.send(.get, "/__paycheck/clock", headers: headers).object()["now"] as? String
    }

    @Test("advancing scope A moves neither scope B nor the default scope")
    func isolation() async throws {
        let provider = FakeProvider(id: "acme")
        let host = MockHost(providers: [provider], clock: fixedClock())
        try await withRouter(host) { client in
            let advanced = try await client.send(
                .post, "/__paycheck/clock", body: #"{"advance":"1h"}"#, headers: self.scoped("run-a"))
            #expect(advanced.status == .ok)
            #expect(advanced.object()["now"] as? String == "2026-01-15T11:00:00Z")

            #expect(try await self.now(client, self.scoped("run-a")) == "2026-01-15T11:00:00Z")
            #expect(try await self.now(client, self.scoped("run-b")) == "2026-01-15T10:00:00Z")
            #expect(try await self.now(client) == "2026-01-15T10:00:00Z")
            #expect(host.clock.now() == fixedBase)

            // Provider routes read the scope's clock through MockEnvironment.clock.
            let inA = try await client.send(.get, "/acme/api/time", headers: self.scoped("run-a")).object()
            let inB = try await client.send(.get, "/acme/api/time", headers: self.scoped("run-b")).object()
            #expect(inA["epoch"] as? Int == Int(fixedBase.timeIntervalSince1970) + 3600)
            #expect(inB["epoch"] as? Int == Int(fixedBase.timeIntervalSince1970))

            // Setting and resetting one scope leaves the other alone.
            _ = try await client.send(
                .post, "/__paycheck/clock", body: #"{"set":"2030-01-01T00:00:00Z"}"#, headers: self.scoped("run-b"))
            #expect(try await self.now(client, self.scoped("run-b")) == "2030-01-01T00:00:00Z")
            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"reset":true}"#, headers: self.scoped("run-a"))
            #expect(try await self.now(client, self.scoped("run-a")) == "2026-01-15T10:00:00Z")
            #expect(try await self.now(client, self.scoped("run-b")) == "2030-01-01T00:00:00Z")
            #expect(host.clockScopes.scopeIDs == ["run-a", "run-b"])
        }
    }

    @Test("PlacetoPay sessions expire on the clock of the scope that reads them")
    func placetoPayHonoursScopes() async throws {
        let host = MockHost(providers: [PlacetoPayMock()], clock: fixedClock())
        try await withRouter(host) { client in
            let created = try await self.placetoPay(client, "api/session", PlacetoPayHarness.sessionBody(), scope: "run-a")
            let requestId = try #require(created["requestId"] as? Int)
            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"31m"}"#)
            let pending = try await self.placetoPay(client, "api/session/\(requestId)", [:], scope: "run-a")
            #expect(string(pending, "status.status") == "PENDING")
            _ = try await client.send(
                .post, "/__paycheck/clock", body: #"{"advance":"31m"}"#, headers: self.scoped("run-a"))
            let expired = try await self.placetoPay(client, "api/session/\(requestId)", [:], scope: "run-a")
            #expect(string(expired, "status.reason") == "EX")
        }
    }

    @Test("a backend given the scoped root shares its run's clock, is journaled as the merchant's, and keeps the root in links")
    func scopedRoot() async throws {
        let host = MockHost(providers: [PlacetoPayMock()], clock: fixedClock())
        try await host.makeApplication().test(.live) { client in
            // A merchant's backend sends no scope header: the scope is in the base URL it was given.
            func backend(_ scope: String, _ path: String, _ body: [String: Any]) async throws -> [String: Any] {
                var body = body
                body["auth"] = PlacetoPaySigner().auth()
                let data = try JSONSerialization.data(withJSONObject: body)
                let response = try await client.execute(
                    uri: "/__paycheck/scope/\(scope)/placetopay/\(path)", method: .post,
                    headers: [.contentType: "application/json"], body: ByteBuffer(bytes: data))
                #expect(response.status == .ok, "\(path): \(String(buffer: response.body))")
                return try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            }
            let mine = try await backend("run-a", "api/session", PlacetoPayHarness.sessionBody())
            let theirs = try await backend("run-b", "api/session", PlacetoPayHarness.sessionBody())
            let processURL = try #require(mine["processUrl"] as? String)
            #expect(processURL.contains("/__paycheck/scope/run-a/placetopay/"), "\(processURL)")
            // The run moves its own clock with the header; the backend's session in that scope expires.
            let moved = try await client.execute(
                uri: "/__paycheck/clock", method: .post,
                headers: [.contentType: "application/json", HTTPFields.Element.Name(ClockScope.headerName)!: "run-a"],
                body: ByteBuffer(string: #"{"advance":"31m"}"#))
            #expect(moved.status == .ok)
            let expired = try await backend("run-a", "api/session/\(try #require(mine["requestId"] as? Int))", [:])
            #expect(string(expired, "status.reason") == "EX")
            let untouched = try await backend("run-b", "api/session/\(try #require(theirs["requestId"] as? Int))", [:])
            #expect(string(untouched, "status.status") == "PENDING")

            let journal = try await client.execute(uri: "/__paycheck/journal?scope=run-a&origin=merchant", method: .get)
            let entries = try #require(
                (JSONSerialization.jsonObject(with: Data(buffer: journal.body)) as? [String: Any])?["requests"] as? [[String: Any]])
            #expect(entries.map { $0["path"] as? String } == ["/placetopay/api/session", "/placetopay/api/session/\(mine["requestId"]!)"])
            let answer = try #require(entries.first?["answer"] as? [String: Any])
            #expect(answer["status"] as? Int == 200)
            #expect((answer["body"] as? String)?.contains("processUrl") == true)
            let sent = try #require(entries.first?["body"] as? String)
            #expect(sent.contains("[redacted]") && !sent.contains(PlacetoPaySigner().secret))
            // What the mock did, recorded as it served each request: the runner reads it and works nothing out again.
            let json = try #require(JSONText.parse(Array(buffer: journal.body)))
            let page = try #require(JournalPage(json: json))
            #expect(
                page.requests.map(\.served) == [
                    RecordedRequest.Served(provider: "placetopay", operation: "createSession", payment: "\(mine["requestId"]!)", amount: 10000, currency: "COP"),
                    RecordedRequest.Served(provider: "placetopay", operation: "querySession"),
                ])
            #expect(page.requests.first.map { RecordedRequest(json: $0.json) } == page.requests.first)
        }
    }

    /// POSTs `body` plus a signed `auth` to the PlacetoPay path `path` in clock scope `scope`; the parsed answer.
    private func placetoPay(
        _ client: any TestClientProtocol,
        _ path: String,
        _ body: [String: Any],
        scope: String
    ) async throws -> [String: Any] {
        var body = body
        body["auth"] = PlacetoPaySigner().auth()
        let data = try JSONSerialization.data(withJSONObject: body)
        var headers = self.scoped(scope)
        headers[.contentType] = "application/json"
        let response = try await client.send(
            .post, "/placetopay/\(path)", body: String(decoding: data, as: UTF8.self), headers: headers)
        #expect(response.status == .ok, "\(path): \(response.text)")
        return response.object()
    }

    @Test("advancing a scope runs that scope's due jobs before the clock route answers")
    func clockRouteRunsDueJobs() async throws {
        let host = MockHost(providers: [], clock: fixedClock())
        let scope = try #require(ClockScope("run-a"))
        let fired = JobFlag()
        host.scheduler.schedule(after: .seconds(300), scope: scope, label: "expiry") { fired.set() }
        try await withRouter(host) { client in
            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"10m"}"#)
            #expect(!fired.isSet)
            _ = try await client.send(
                .post, "/__paycheck/clock", body: #"{"advance":"5m"}"#, headers: self.scoped("run-a"))
            #expect(fired.isSet)
        }
    }

    @Test("a malformed scope id is answered 400 and reset forgets every scope")
    func malformedAndReset() async throws {
        let host = MockHost(providers: [], clock: fixedClock())
        try await withRouter(host) { client in
            let bad = try await client.send(.get, "/__paycheck/clock", headers: self.scoped("has space"))
            #expect(bad.status == .badRequest)
            #expect(bad.errorMessage?.hasPrefix("invalid X-PayCheck-Clock-Scope 'has space'") == true)
            _ = try await client.send(
                .post, "/__paycheck/clock", body: #"{"advance":"1h"}"#, headers: self.scoped("run-a"))
            _ = try await client.send(.post, "/__paycheck/reset")
            #expect(host.clockScopes.scopeIDs.isEmpty)
            #expect(try await self.now(client, self.scoped("run-a")) == "2026-01-15T10:00:00Z")
        }
    }

    @Test("scope ids: letters, digits and -_.: only, 1 to 128 characters")
    func validation() {
        #expect(ClockScope("run-42_shard.1:a")?.id == "run-42_shard.1:a")
        #expect(ClockScope("") == nil)
        #expect(ClockScope("ü") == nil)
        #expect(ClockScope(String(repeating: "a", count: 129)) == nil)
        #expect(ClockScope(String(repeating: "a", count: 128)) != nil)
    }
}

/// The scope table stays bounded without ever refusing a run.
@Suite("Clock scope table")
struct ClockScopeTableTests {
    @Test("past the limit the least recently used scope is dropped, and a new scope is always served")
    func leastRecentlyUsedEviction() throws {
        let scopes = MockClockScopes(defaultClock: fixedClock())
        let s0 = try #require(ClockScope("run-0")), s1 = try #require(ClockScope("run-1"))
        scopes.clock(for: s0).advance(by: 60)
        _ = scopes.clock(for: s1)
        for index in 2..<MockClockScopes.maximumScopes { _ = scopes.clock(for: try #require(ClockScope("run-\(index)"))) }
        _ = scopes.clock(for: s0)  // run-0 is used again, so run-1 is now the least recently used
        let newest = try #require(ClockScope("run-new"))
        #expect(scopes.clock(for: newest).offsetSeconds == 0)
        #expect(scopes.scopeIDs.count == MockClockScopes.maximumScopes)
        #expect(!scopes.scopeIDs.contains("run-1") && scopes.scopeIDs.contains("run-0"))
        #expect(scopes.clock(for: s0).offsetSeconds == 60)
    }
}
