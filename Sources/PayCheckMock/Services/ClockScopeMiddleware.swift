import Hummingbird

/// Binds the clock scope named by a request's ``ClockScope/headerName`` header (or the default scope) to
/// ``ClockScope/current`` while the route runs, so that ``MockEnvironment/clock``, the clock control routes and
/// every job or webhook scheduled by the route use that scope's clock.
struct ClockScopeMiddleware: RouterMiddleware {
    /// The request context of the host's router.
    typealias Context = BasicRequestContext

    /// The header, parsed once.
    static let header = HTTPFields.Element.Name(ClockScope.headerName)!

    /// The clocks, to refuse a scope beyond ``MockClockScopes/maximumScopes``.
    let scopes: MockClockScopes

    /// Runs the route with the request's scope bound.
    /// - Throws: ``MockHTTPError`` (400) for a malformed scope id or one too many scopes.
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let raw = request.headers[Self.header] else {
            return try await ClockScope.$current.withValue(.default) { try await next(request, context) }
        }
        guard let scope = ClockScope(raw) else {
            throw MockHTTPError(
                .badRequest,
                "invalid \(ClockScope.headerName) \(MockHTTPError.quoted(raw)): expected 1 to "
                    + "\(ClockScope.maximumLength) letters, digits or '-_.:'")
        }
        guard self.scopes.clockIfAvailable(for: scope) != nil else {
            throw MockHTTPError(
                .badRequest,
                "too many clock scopes: \(MockHTTPError.quoted(scope.id)) would exceed "
                    + "\(MockClockScopes.maximumScopes); reset the mock with POST /__paycheck/reset")
        }
        return try await ClockScope.$current.withValue(scope) { try await next(request, context) }
    }
}
