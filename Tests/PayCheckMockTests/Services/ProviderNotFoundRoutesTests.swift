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

    /// `GET /shape/v1/ping`, and the provider's 404 for everything else under `/shape`.
    func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        router.get("shape/v1/ping") { _, _ -> Response in
            HTTPResponseData.json(status: 200, #"{"pong":true}"#).response
        }
        ProviderNotFoundRoutes.register(on: router, provider: self.id, environment: environment) { request, now in
            HTTPResponseData.json(
                status: 404,
                #"{"code":"NOT_FOUND","path":"\#(request.uri.path)","at":\#(Int(now.timeIntervalSince1970))}"#)
        }
    }

    /// Nothing to forget.
    func reset() async {}
}

@Suite("Per-provider JSON 404")
struct ProviderNotFoundRoutesTests {
    @Test("unknown paths under the provider answer its own error shape, for every method; known routes still win")
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
            #expect(try await client.send(.get, "/shape").object()["code"] as? String == "NOT_FOUND")
            // Another provider and the host keep the host's generic 404.
            let other = try await client.send(.get, "/acme/nothing")
            #expect(other.status == .notFound)
            #expect(other.errorMessage == "no mock route for 'GET /acme/nothing'")
        }
    }
}
