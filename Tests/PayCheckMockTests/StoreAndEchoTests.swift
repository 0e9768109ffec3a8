import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("Control API: key-value store and echo")
struct StoreAndEchoTests {
    @Test("kv create, read, replace and delete round-trip the JSON value (keys sorted, numbers as parsed)")
    func keyValueCRUD() async throws {
        let host = makeHost()
        try await withRouter(host) { client in
            let created = try await client.send(.post, "/__paycheck/kv", body: #"{"amount": 10.50, "n": [1,2]}"#)
            #expect(created.status == .created)
            #expect(created.isJSON)
            #expect(created.text == #"{"id":"kv-1","value":{"amount":10.5,"n":[1,2]}}"#)

            let second = try await client.send(.post, "/__paycheck/kv", body: #""text""#)
            #expect(second.object()["id"] as? String == "kv-2")

            let read = try await client.send(.get, "/__paycheck/kv/kv-1")
            #expect(read.status == .ok)
            #expect(read.text == #"{"id":"kv-1","value":{"amount":10.5,"n":[1,2]}}"#)

            let replaced = try await client.send(.put, "/__paycheck/kv/order-7", body: #"{"state":"PAID"}"#)
            #expect(replaced.status == .ok)
            #expect(replaced.text == #"{"id":"order-7","value":{"state":"PAID"}}"#)
            #expect(try await client.send(.get, "/__paycheck/kv/order-7").object()["value"] as? [String: String] == ["state": "PAID"])

            let deleted = try await client.send(.delete, "/__paycheck/kv/order-7")
            #expect(deleted.status == .noContent)
            let gone = try await client.send(.get, "/__paycheck/kv/order-7")
            #expect(gone.status == .notFound)
            #expect(gone.errorMessage == "no value stored under 'order-7'")
            let deletedAgain = try await client.send(.delete, "/__paycheck/kv/order-7")
            #expect(deletedAgain.status == .notFound)
            #expect(deletedAgain.errorMessage == "no value stored under 'order-7'")
        }
    }

    @Test("kv ids restart after reset and skip keys already taken")
    func keyValueIDs() async throws {
        try await withRouter(makeHost()) { client in
            _ = try await client.send(.post, "/__paycheck/kv", body: "1")
            _ = try await client.send(.post, "/__paycheck/reset")
            _ = try await client.send(.put, "/__paycheck/kv/kv-1", body: "0")
            let created = try await client.send(.post, "/__paycheck/kv", body: "2")
            #expect(created.object()["id"] as? String == "kv-2")
        }
    }

    @Test("kv rejects bodies that are not JSON", arguments: ["{oops", "", "not json"])
    func keyValueBadJSON(body: String) async throws {
        try await withRouter(makeHost()) { client in
            for response in [
                try await client.send(.post, "/__paycheck/kv", body: body),
                try await client.send(.put, "/__paycheck/kv/k", body: body),
            ] {
                #expect(response.status == .badRequest)
                #expect(response.isJSON)
                let message = response.errorMessage ?? ""
                #expect(message.contains("not valid JSON") || message.contains("empty"), "got \(message)")
            }
        }
    }

    @Test("echo describes method, path, query, headers and body")
    func echo() async throws {
        try await withRouter(makeHost()) { client in
            let response = try await client.send(
                .patch,
                "/__paycheck/echo/deep/path?a=1&b=two%20words",
                body: #"{"x":[1,true]}"#,
                headers: [.contentType: "application/json", .init("X-Trace")!: "abc"]
            )
            #expect(response.status == .ok)
            #expect(response.isJSON)
            let body = response.object()
            #expect(body["method"] as? String == "PATCH")
            #expect(body["path"] as? String == "/__paycheck/echo/deep/path")
            #expect(body["query"] as? [String: String] == ["a": "1", "b": "two words"])
            let headers = body["headers"] as? [String: String] ?? [:]
            #expect(headers["x-trace"] == "abc")
            #expect(headers["content-type"] == "application/json")
            #expect(response.text.contains(#""json":{"x":[1,true]}"#))
            #expect(body["body"] as? String == #"{"x":[1,true]}"#)
        }
    }

    @Test("echo answers any method, with null json for non-JSON bodies")
    func echoAnyMethod() async throws {
        try await withRouter(makeHost()) { client in
            let response = try await client.send(HTTPRequest.Method("PROPFIND")!, "/__paycheck/echo", body: "plain")
            #expect(response.status == .ok)
            let body = response.object()
            #expect(body["method"] as? String == "PROPFIND")
            #expect(body["json"] is NSNull)
            #expect(body["body"] as? String == "plain")
        }
    }

    @Test("echo status is chosen with status=NNN")
    func echoStatus() async throws {
        try await withRouter(makeHost()) { client in
            let teapot = try await client.send(.get, "/__paycheck/echo?status=418")
            #expect(teapot.status.code == 418)
            #expect(teapot.object()["path"] as? String == "/__paycheck/echo")
            let noContent = try await client.send(.get, "/__paycheck/echo?status=204")
            #expect(noContent.status == .noContent)
            #expect(noContent.body.readableBytes == 0)
        }
    }

    @Test("echo rejects a bad status with 400 quoting it", arguments: ["abc", "99", "600", "101", ""])
    func echoBadStatus(status: String) async throws {
        try await withRouter(makeHost()) { client in
            let response = try await client.send(.get, "/__paycheck/echo?status=\(status)")
            #expect(response.status == .badRequest)
            #expect(response.errorMessage == "invalid echo status '\(status)': expected an integer from 200 to 599")
        }
    }

    @Test("echo and kv requests are journaled, other control requests are not")
    func controlJournaling() async throws {
        let host = makeHost()
        try await withRouter(host) { client in
            _ = try await client.send(.get, "/__paycheck/echo")
            _ = try await client.send(.put, "/__paycheck/kv/a", body: "1")
            _ = try await client.send(.get, "/__paycheck/clock")
            _ = try await client.send(.get, "/__paycheck/faults")
        }
        #expect(host.journal.entries().map(\.path) == ["/__paycheck/echo", "/__paycheck/kv/a"])
    }
}
