package import PayCheckCore
import Hummingbird

/// Binds the clock scope of a request under the scoped root (``ScopedRequest``), else the one named by its
/// ``ClockScope/headerName`` header (or the default scope), to
/// ``ClockScope/current`` while the route runs, so that ``MockEnvironment/clock``, the clock control routes and
/// every job or webhook scheduled by the route use that scope's clock.
struct ClockScopeMiddleware: RouterMiddleware {
    /// The request context of the host's router.
    typealias Context = BasicRequestContext

    /// The header, parsed once.
    static let header = HTTPFields.Element.Name(ClockScope.headerName)!

    /// The clocks (the scope's clock is created, or refreshed as recently used, before the route runs).
    let scopes: MockClockScopes

    /// Runs the route with the request's scope bound.
    /// - Throws: ``MockHTTPError`` (400) for a malformed scope id.
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let scope = ScopedRequest.scope {
            _ = self.scopes.clock(for: scope)
            return try await ClockScope.$current.withValue(scope) { try await next(request, context) }
        }
        guard let raw = request.headers[Self.header] else {
            return try await ClockScope.$current.withValue(.default) { try await next(request, context) }
        }
        guard let scope = ClockScope(raw) else {
            throw MockHTTPError(
                .badRequest,
                "invalid \(ClockScope.headerName) \(MockHTTPError.quoted(raw)): expected 1 to "
                    + "\(ClockScope.maximumLength) letters, digits or '-_.:'")
        }
        _ = self.scopes.clock(for: scope)
        return try await ClockScope.$current.withValue(scope) { try await next(request, context) }
    }
}
