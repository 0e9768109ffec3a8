import Hummingbird
import PayCheckCore

/// A request that arrived under ``ControlAPI/scopedRoot(_:)``: sent by a merchant's backend that was given
/// `…/__paycheck/scope/<scope>` as the mock's URL. It is served as the path without the prefix, in that clock scope,
/// journaled as the merchant's with the mock's answer, and the URLs the mock writes into its answers keep the prefix,
/// so a link the backend follows stays in its run's scope.
enum ScopedRequest {
    /// The scope of the request being handled, when it came under the scoped root; `nil` otherwise.
    @TaskLocal static var scope: ClockScope?

    /// `https` when the host serves TLS (``MockHost/makeApplication(host:port:tls:onRunning:)``), else `http`.
    @TaskLocal static var scheme = "http"

    /// The scheme and authority the client used, e.g. `https://127.0.0.1:8443`: the base of the links a mock writes
    /// and of the URL a khipu 2.0 signature covers.
    static func origin(_ request: Request) -> String {
        self.scheme + "://" + (request.head.authority ?? "127.0.0.1")
    }

    /// The prefix to put before the paths the mock writes into its answers for the current request ("" outside
    /// a scoped request).
    static var baseSuffix: String {
        self.scope.map { ControlAPI.scopedRoot($0.id) } ?? ""
    }

    /// Serves `request` through `respond`: unchanged, or, under the scoped root, without the prefix and with
    /// ``scope`` bound. A malformed scope id is answered 400.
    static func serve(
        _ request: Request,
        _ respond: (Request) async throws -> Response
    ) async throws -> Response {
        guard let (id, rest) = ControlAPI.scopedPath(request.uri.path) else { return try await respond(request) }
        guard let scope = ClockScope(id) else {
            return MockResponse.error(
                .badRequest,
                "invalid scope \(MockHTTPError.quoted(id)) in the path: expected 1 to \(ClockScope.maximumLength) "
                    + "letters, digits or '-_.:'")
        }
        var head = request.head
        head.path = rest + (request.uri.query.map { "?" + $0 } ?? "")
        let rewritten = Request(head: head, body: request.body)
        return try await self.$scope.withValue(scope) { try await respond(rewritten) }
    }
}
