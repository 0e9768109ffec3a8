import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("Control API: fault injection")
struct FaultTests {
    @Test("a status fault answers its status for count requests, then the route answers again")
    func statusFault() async throws {
        try await withRouter(makeHost([FakeProvider(id: "fakepay")])) { client in
            let created = try await client.send(
                .post,
                "/__paycheck/faults",
                body: #"{"path":"/fakepay/api/session","count":2,"kind":"status","status":503}"#
            )
            #expect(created.status == .created)
            #expect(created.text == #"{"applied":0,"id":"fault-1","kind":"status","path":"/fakepay/api/session","remaining":2,"status":503}"#)

            for _ in 0..<2 {
                let faulted = try await client.send(.post, "/fakepay/api/session")
                #expect(faulted.status == .serviceUnavailable)
                #expect(faulted.isJSON)
                #expect(faulted.errorMessage == "injected fault")
            }
            let normal = try await client.send(.post, "/fakepay/api/session")
            #expect(normal.status == .created)
            #expect(normal.object()["requestId"] as? Int == 1)
        }
    }

    @Test("a malformed fault answers 200 with truncated JSON")
    func malformedFault() async throws {
        try await withRouter(makeHost([FakeProvider(id: "fakepay")])) { client in
            _ = try await client.send(.post, "/__paycheck/faults", body: #"{"path":"/fakepay","kind":"malformed"}"#)
            let response = try await client.send(.post, "/fakepay/api/session")
            #expect(response.status == .ok)
            #expect(response.isJSON)
            #expect(response.text == #"{"truncated": "#)
            #expect(try await client.send(.post, "/fakepay/api/session").status == .created)
        }
    }

    @Test("a delay fault waits and then passes the request to the route")
    func delayFault() async throws {
        let provider = FakeProvider(id: "fakepay")
        try await withRouter(makeHost([provider])) { client in
            _ = try await client.send(.post, "/__paycheck/faults", body: #"{"path":"/fakepay","kind":"delay","delayMs":20}"#)
            let start = ContinuousClock.now
            let response = try await client.send(.post, "/fakepay/api/session")
            #expect(ContinuousClock.now - start >= .milliseconds(20))
            #expect(response.status == .created)
        }
        #expect(provider.sessionCount == 1)
    }

    @Test("a reset fault never reaches the route and is marked for the live server to drop")
    func resetFaultOnRouter() async throws {
        let provider = FakeProvider(id: "fakepay")
        try await withRouter(makeHost([provider])) { client in
            _ = try await client.send(.post, "/__paycheck/faults", body: #"{"path":"/fakepay","kind":"reset"}"#)
            let response = try await client.send(.post, "/fakepay/api/session")
            #expect(response.status == .badGateway)
            #expect(response.headers[.init("x-paycheck-fault")!] == "reset")
        }
        #expect(provider.sessionCount == 0)
    }

    @Test("faults are listed, consumed in order and cleared")
    func listAndClear() async throws {
        try await withRouter(makeHost()) { client in
            _ = try await client.send(.post, "/__paycheck/faults", body: #"{"path":"/a","kind":"status","status":500}"#)
            _ = try await client.send(.post, "/__paycheck/faults", body: #"{"path":"/b","kind":"malformed","count":3}"#)
            let listed = try await client.send(.get, "/__paycheck/faults").object()
            #expect(listed["count"] as? Int == 2)
            let faults = listed["faults"] as? [[String: Any]] ?? []
            #expect(faults.map { $0["id"] as? String } == ["fault-1", "fault-2"])

            _ = try await client.send(.get, "/b/anything")
            let afterOne = try await client.send(.get, "/__paycheck/faults").object()
            #expect((afterOne["faults"] as? [[String: Any]])?.last?["remaining"] as? Int == 2)

            #expect(try await client.send(.delete, "/__paycheck/faults").status == .noContent)
            #expect(try await client.send(.get, "/__paycheck/faults").object()["count"] as? Int == 0)
            #expect(try await client.send(.get, "/a").status == .notFound)
        }
    }

    @Test("control routes are never faulted")
    func controlRoutesUnaffected() async throws {
        try await withRouter(makeHost()) { client in
            let response = try await client.send(
                .post,
                "/__paycheck/faults",
                body: #"{"path":"/__paycheck/health","kind":"status","status":500}"#
            )
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains("'/__paycheck/health' is a control route") == true)
            #expect(try await client.send(.get, "/__paycheck/health").status == .ok)
        }
    }

    @Test(
        "bad fault bodies get 400 naming the field and value",
        arguments: [
            (#"{"kind":"status","status":503}"#, "a fault needs 'provider' (and optionally 'operation') or 'path'"),
            (#"{"path":"api","kind":"malformed"}"#, "got 'api'"),
            (#"{"path":"/a","kind":"explode"}"#, "unknown fault kind 'explode'"),
            (#"{"path":"/a"}"#, "a fault needs 'kind'"),
            (#"{"path":"/a","kind":"status"}"#, "fault kind 'status' needs 'status' (200–599)"),
            (#"{"path":"/a","kind":"status","status":999}"#, "fault 'status' must be a number in 200…599, got 999"),
            (#"{"path":"/a","kind":"delay"}"#, "needs 'delayMs'"),
            (#"{"path":"/a","kind":"delay","delayMs":-1}"#, "got -1"),
            (#"{"path":"/a","kind":"reset","count":0}"#, "fault 'count' must be a number in 1…1000000, got 0"),
            (#"{"path":"/a","kind":"reset","count":"2"}"#, "fault 'count' must be a number"),
            (#"{"provider":"nopay","kind":"reset"}"#, "unknown fault provider 'nopay'"),
            (#"{"path":"/a","kind":"reset","status":503}"#, "'status' does not apply to fault kind 'reset'"),
            (#"{"path":"/a","kind":"duplicate"}"#, "webhook fault 'duplicate' needs 'provider'"),
            (#"{"path":"/a","kind":"reset","times":2}"#, "unknown fault field 'times'"),
            ("nope", "not valid JSON"),
        ]
    )
    func badFaults(body: String, message: String) async throws {
        try await withRouter(makeHost()) { client in
            let response = try await client.send(.post, "/__paycheck/faults", body: body)
            #expect(response.status == .badRequest)
            #expect(response.isJSON)
            let error = response.errorMessage ?? ""
            #expect(error.contains(message), "got \(error)")
            #expect(try await client.send(.get, "/__paycheck/faults").object()["count"] as? Int == 0)
        }
    }
}
