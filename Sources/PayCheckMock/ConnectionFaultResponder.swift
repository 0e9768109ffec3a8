import Hummingbird

/// The request context of the live server, keeping the connection so a fault can close it.
struct MockRequestContext: RequestContext {
    /// Core storage required by Hummingbird.
    var coreContext: CoreRequestContextStorage
    /// The context handed to the host router for this request.
    let routerContext: BasicRequestContext
    /// Closes the request's connection.
    let closeConnection: @Sendable () async -> Void

    /// Creates a context for a request arriving on `source.channel`.
    init(source: ApplicationRequestContextSource) {
        self.coreContext = CoreRequestContextStorage(source: source)
        self.routerContext = BasicRequestContext(source: source)
        self.closeConnection = { [channel = source.channel] in
            try? await channel.close()
        }
    }
}

/// The live server's responder: runs the host router (a request under the scoped root without its prefix, see
/// ``ScopedRequest``) and turns an injected `reset` fault into a closed connection.
///
/// Hummingbird answers every error from a responder with a response, so ``MockMiddleware`` marks a
/// reset with a 502 response and a marker header; here, where the channel is known, that response
/// is dropped and the connection is closed instead, so the client sees it end without a response.
struct ConnectionFaultResponder: HTTPResponder {
    /// The host router's responder.
    let router: RouterResponder<BasicRequestContext>
    /// `https` when the server speaks TLS.
    var scheme = "http"

    /// Responds through the router, closing the connection for a reset fault.
    func respond(to request: Request, context: MockRequestContext) async throws -> Response {
        let response = try await ScopedRequest.$scheme.withValue(scheme) {
            try await ScopedRequest.serve(request) { request in
                try await self.router.respond(to: request, context: context.routerContext)
            }
        }
        guard response.headers[MockMiddleware.resetMarkerHeader] == MockMiddleware.resetMarkerValue else {
            return response
        }
        await context.closeConnection()
        throw ConnectionResetByFault()
    }
}

/// Thrown after closing a connection for an injected `reset` fault; the server then writes nothing.
struct ConnectionResetByFault: Error {}
