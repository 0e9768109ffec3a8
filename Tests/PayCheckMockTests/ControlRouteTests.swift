import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("Control API: health, clock, journal, reset, unknown routes")
struct ControlRouteTests {
    @Test("health reports status, providers and mock time")
    func health() async throws {
        let host = makeHost([FakeProvider(id: "fakepay")])
        try await withRouter(host) { client in
            let response = try await client.send(.get, "/__paycheck/health")
            #expect(response.status == .ok)
            #expect(response.isJSON)
            let body = response.object()
            #expect(body["status"] as? String == "ok")
            #expect(body["providers"] as? [String] == ["fakepay"])
            #expect(body["now"] as? String == "2026-01-15T10:00:00Z")
        }
    }

    @Test("clock advances by a duration and reports the new time")
    func clockAdvance() async throws {
        let host = makeHost()
        try await withRouter(host) { client in
            let advanced = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"31m"}"#)
            #expect(advanced.status == .ok)
            #expect(advanced.object()["now"] as? String == "2026-01-15T10:31:00Z")
            let seconds = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":29}"#)
            #expect(seconds.object()["now"] as? String == "2026-01-15T10:31:29Z")
            let current = try await client.send(.get, "/__paycheck/clock")
            #expect(current.object()["now"] as? String == "2026-01-15T10:31:29Z")
        }
        #expect(host.clock.now() == fixedBase.addingTimeInterval(31 * 60 + 29))
    }

    @Test("clock set jumps to an ISO 8601 instant")
    func clockSet() async throws {
        let host = makeHost()
        try await withRouter(host) { client in
            let response = try await client.send(.post, "/__paycheck/clock", body: #"{"set":"2030-06-01T00:00:00Z"}"#)
            #expect(response.status == .ok)
            #expect(response.object()["now"] as? String == "2030-06-01T00:00:00Z")
        }
    }

    @Test(
        "bad clock bodies get 400 with a message quoting the value",
        arguments: [
            (#"{"advance":"31x"}"#, "invalid clock advance '31x'"),
            (#"{"advance":true}"#, "invalid clock advance 'true'"),
            (#"{"advance":-5}"#, "invalid clock advance '-5'"),
            (#"{"set":"next tuesday"}"#, "invalid clock set value 'next tuesday'"),
            (#"{"advance":"1m","set":"2030-06-01T00:00:00Z"}"#, "not both"),
            (#"{"speed":2}"#, "unknown clock field 'speed'"),
            (#"{}"#, "expected a JSON object with 'advance'"),
            (#"[1,2]"#, "must be a JSON object, got '[1,2]'"),
            ("advance=31m", "not valid JSON: 'advance=31m'"),
            ("", "request body is empty"),
        ]
    )
    func clockErrors(body: String, message: String) async throws {
        let host = makeHost()
        try await withRouter(host) { client in
            let response = try await client.send(.post, "/__paycheck/clock", body: body)
            #expect(response.status == .badRequest)
            #expect(response.isJSON)
            let error = response.errorMessage ?? ""
            #expect(error.contains(message), "got \(error)")
        }
        #expect(host.clock.now() == fixedBase)
    }

    @Test("the journal keeps no card number beyond its last four digits: body (JSON string or number, form), query, headers")
    func journalMasksCardNumbers() async throws {
        let host = makeHost([FakeProvider(id: "fakepay")])
        try await withRouter(host) { client in
            _ = try await client.send(
                .post,
                "/fakepay/api/session?card=4242424242424242",
                body: #"{"card":{"number":"4110760000000081","spaced":"4111 1111 1111 1111"},"raw":5555555555554444,"amount":10}"#,
                headers: [HTTPFields.Element.Name("X-Card")!: "4000-0000-0000-0002"]
            )
            _ = try await client.send(.post, "/fakepay/api/form", body: "number=378282246310005&cvv=123")
            let journal = try await client.send(.get, "/__paycheck/journal?path=/fakepay").text
            for sentinel in ["4242424242424242", "4110760000000081", "4111 1111 1111 1111", "5555555555554444", "4000-0000-0000-0002", "378282246310005"] {
                #expect(!journal.contains(sentinel), "\(sentinel) in \(journal)")
            }
            for lastFour in ["4242", "0081", "1111", "4444", "0002", "0005"] { #expect(journal.contains(lastFour)) }
        }
    }

    @Test("journal records mock routes, filters by path prefix and can be cleared")
    func journal() async throws {
        let host = makeHost([FakeProvider(id: "fakepay")])
        try await withRouter(host) { client in
            _ = try await client.send(
                .post,
                "/fakepay/api/session?lang=es",
                body: #"{"amount":10}"#,
                headers: [.authorization: "Bearer t"]
            )
            _ = try await client.send(.get, "/elsewhere")
            _ = try await client.send(.get, "/__paycheck/health")

            let all = try await client.send(.get, "/__paycheck/journal").object()
            #expect(all["count"] as? Int == 2)

            let filtered = try await client.send(.get, "/__paycheck/journal?path=/fakepay").object()
            #expect(filtered["count"] as? Int == 1)
            let entry = try #require((filtered["requests"] as? [[String: Any]])?.first)
            #expect(entry["method"] as? String == "POST")
            #expect(entry["path"] as? String == "/fakepay/api/session")
            #expect(entry["query"] as? String == "lang=es")
            #expect(entry["body"] as? String == #"{"amount":10}"#)
            #expect(entry["receivedAt"] as? String == "2026-01-15T10:00:00Z")
            let headers = entry["headers"] as? [[String]] ?? []
            #expect(headers.contains(["Authorization", "Bearer t"]))

            let cleared = try await client.send(.delete, "/__paycheck/journal")
            #expect(cleared.status == .noContent)
            #expect(try await client.send(.get, "/__paycheck/journal").object()["count"] as? Int == 0)
        }
    }

    @Test("reset clears journal, store, faults and clock offset")
    func reset() async throws {
        let host = makeHost()
        try await withRouter(host) { client in
            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"1h"}"#)
            _ = try await client.send(.put, "/__paycheck/kv/a", body: "1")
            _ = try await client.send(.post, "/__paycheck/faults", body: #"{"path":"/x","kind":"malformed"}"#)
            _ = try await client.send(.get, "/x")

            let response = try await client.send(.post, "/__paycheck/reset")
            #expect(response.status == .ok)
            #expect(response.object()["status"] as? String == "reset")

            #expect(try await client.send(.get, "/__paycheck/clock").object()["now"] as? String == "2026-01-15T10:00:00Z")
            #expect(try await client.send(.get, "/__paycheck/kv/a").status == .notFound)
            #expect(try await client.send(.get, "/__paycheck/faults").object()["count"] as? Int == 0)
            // The kv GET above is journaled; nothing from before the reset is.
            let journal = try await client.send(.get, "/__paycheck/journal").object()
            #expect(journal["count"] as? Int == 1)
        }
    }

    @Test("unknown control routes and wrong methods get a JSON 404 naming method and path")
    func unknownControlRoute() async throws {
        try await withRouter(makeHost()) { client in
            let unknown = try await client.send(.get, "/__paycheck/nope")
            #expect(unknown.status == .notFound)
            #expect(unknown.isJSON)
            #expect(unknown.errorMessage == "unknown control route 'GET /__paycheck/nope'")

            let wrongMethod = try await client.send(.put, "/__paycheck/health")
            #expect(wrongMethod.status == .notFound)
            #expect(wrongMethod.errorMessage == "unknown control route 'PUT /__paycheck/health'")

            let root = try await client.send(.get, "/__paycheck")
            #expect(root.errorMessage == "unknown control route 'GET /__paycheck'")
        }
    }

    @Test("unknown mock routes get a JSON 404 naming method and path")
    func unknownMockRoute() async throws {
        try await withRouter(makeHost()) { client in
            let response = try await client.send(.delete, "/placetopay/api/session/1")
            #expect(response.status == .notFound)
            #expect(response.isJSON)
            #expect(response.errorMessage == "no mock route for 'DELETE /placetopay/api/session/1'")
        }
    }

    @Test("bodies over 2 MiB get a JSON 413 and the server keeps serving")
    func bodyTooLarge() async throws {
        let huge = String(repeating: "x", count: 2 * 1024 * 1024 + 1)
        try await withRouter(makeHost()) { client in
            let response = try await client.send(.post, "/__paycheck/kv", body: huge)
            #expect(response.status == .contentTooLarge)
            #expect(response.isJSON)
            #expect(response.errorMessage?.contains("exceeds the mock's limit of 2 MiB") == true)
            #expect(try await client.send(.get, "/__paycheck/health").status == .ok)
        }
    }
}
