import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import PayCheckProviders
import Testing

/// A provider with one route and its own JSON 404 shape.
struct NotFoundShapeProvider: ProviderMock {
    /// An adapter with the id `shape`.
    var provider: any Provider { FakeAdapter(id: "shape") }
    /// None.
    var nativeStates: [String] { [] }

    /// `GET /shape/v1/ping` only.
    func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        router.get("shape/v1/ping") { _, _ -> Response in
            HTTPResponseData.json(status: 200, #"{"pong":true}"#).response
        }
    }

    /// The provider's own 404.
    func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData {
        HTTPResponseData.json(status: 404, #"{"code":"NOT_FOUND","path":"\#(path)","at":\#(Int(now.timeIntervalSince1970))}"#)
    }

    /// Nothing to forget.
    func reset() async {}
}

@Suite("Requests no route serves: one host rule, each provider's shape")
struct UnroutedRequestTests {
    @Test("unknown paths under a provider answer its own error shape, for every method; known routes still win")
    func providerShape() async throws {
        let host = MockHost(providers: [NotFoundShapeProvider(), FakeProvider(id: "acme")], clock: fixedClock())
        try await withRouter(host) { client in
            #expect(try await client.send(.get, "/shape/v1/ping").text == #"{"pong":true}"#)
            for method in [HTTPRequest.Method.get, .post, .delete] {
                let response = try await client.send(method, "/shape/v1/nothing/here")
                #expect(response.status == .notFound)
                #expect(response.isJSON)
                #expect(response.object()["code"] as? String == "NOT_FOUND")
                #expect(response.object()["path"] as? String == "/shape/v1/nothing/here")
                #expect(response.object()["at"] as? Int == Int(fixedBase.timeIntervalSince1970))
            }
            // A provider without a shape of its own answers its errorAnswer; outside every provider, the host's 404.
            let other = try await client.send(.get, "/acme/nothing")
            #expect(other.status == .notFound)
            #expect(other.errorMessage == "No resource at GET /acme/nothing")
            #expect(try await client.send(.get, "/nobody/here").errorMessage == "no mock route for 'GET /nobody/here'")
        }
    }

    @Test("every built-in provider answers another method on each declared operation path, and an unknown path, in its own shape")
    func everyProvider() async throws {
        let host = MockHost(providers: MockRegistry.builtIn, clock: fixedClock())
        try await withRouter(host) { client in
            for mock in MockRegistry.builtIn {
                let base = mock.provider.mockBasePaths.first ?? "/\(mock.id)"
                let shape = mock.errorAnswer(status: 404, message: "x", now: fixedBase).headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
                let unknown = try await client.send(.get, base + "/no/such/resource")
                #expect(unknown.status == .notFound, "\(mock.id): \(unknown.status)")
                #expect((unknown.headers[.contentType] ?? "").hasPrefix(shape), "\(mock.id): \((unknown.headers[.contentType] ?? "")) is not \(shape)")
                #expect(!unknown.text.contains("no mock route"), "\(mock.id) answered the host's generic 404")
                var paths: [String: Set<String>] = [:]
                for operation in mock.provider.operations { paths[operation.path, default: []].insert(operation.method) }
                for (template, served) in paths {
                    let path = base + template.replacingOccurrences(of: #"\{[^}]+\}"#, with: "x1", options: .regularExpression)
                    for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] where !served.contains(method.rawValue) {
                        let response = try await client.send(method, path)
                        #expect([404, 405].contains(response.status.code) || response.status.code == 401, "\(mock.id) \(method) \(path): \(response.status)")
                        #expect(!response.text.contains("no mock route"), "\(mock.id) \(method) \(path): the host's generic 404")
                        if response.status == .methodNotAllowed {
                            #expect((response.headers[.contentType] ?? "").hasPrefix(shape), "\(mock.id) \(method) \(path): \((response.headers[.contentType] ?? ""))")
                            #expect(response.headers[.allow] == served.sorted().joined(separator: ", "), "\(mock.id) \(method) \(path)")
                        }
                    }
                }
            }
        }
    }
}
