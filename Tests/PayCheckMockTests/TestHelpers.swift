import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

/// 2026-01-15T10:00:00Z, the fixed base time of test clocks.
let fixedBase = Date(timeIntervalSince1970: 1_768_471_200)

/// A mock clock that never moves unless a test moves it.
func fixedClock() -> MockClock {
    MockClock(base: { fixedBase })
}

/// A host over `providers` with a fixed clock.
func makeHost(_ providers: [any ProviderMock] = []) -> MockHost {
    MockHost(providers: providers, clock: fixedClock())
}

/// Runs `test` against `host` through HummingbirdTesting's socket-free `.router` framework.
func withRouter<Value: Sendable>(
    _ host: MockHost,
    _ test: @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    try await Application(router: host.makeRouter(), logger: host.logger).test(.router) { client in
        try await test(client)
    }
}

extension TestClientProtocol {
    /// Sends a request with an optional text body; a control-API request says it is JSON unless `headers` name
    /// another content type, as the runner does (the control API refuses other POSTs).
    func send(
        _ method: HTTPRequest.Method,
        _ uri: String,
        body: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if uri.hasPrefix("/__paycheck/"), headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await self.executeRequest(
            uri: uri,
            method: method,
            headers: headers,
            body: body.map { ByteBuffer(string: $0) }
        )
    }
}

extension TestResponse {
    /// The body as UTF-8 text.
    var text: String { String(buffer: self.body) }

    /// The body parsed as a JSON object; records an issue and returns `[:]` when it is not one.
    func object(sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
        let parsed = try? JSONSerialization.jsonObject(with: Data(self.text.utf8), options: [.fragmentsAllowed])
        guard let object = parsed as? [String: Any] else {
            Issue.record("response body is not a JSON object: \(self.text)", sourceLocation: sourceLocation)
            return [:]
        }
        return object
    }

    /// The `error` member of a JSON error body.
    var errorMessage: String? { self.object()["error"] as? String }

    /// Whether the response declares a JSON content type.
    var isJSON: Bool { self.headers[.contentType] == "application/json" }
}
