package import Foundation
package import Hummingbird
package import PayCheckProviders

/// Makes unknown paths under `/<provider>/…` answer the provider's own JSON error instead of the host's generic
/// `{"error": …}` 404, for every method.
///
/// A provider mock calls ``register(on:provider:environment:_:)`` at the end of its ``ProviderMock/register(on:environment:)``;
/// its own routes still win, because the router prefers a literal path over the `**` wildcard.
package enum ProviderNotFoundRoutes {
    /// The methods answered.
    package static let methods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .head, .options]

    /// Answers every request under `/<provider>` that matches no other route with `body(request, now)`.
    /// - Parameters:
    ///   - router: The host's router.
    ///   - provider: The provider id, i.e. the first path segment.
    ///   - environment: The host's services; `now` is read from the clock of the request's scope.
    ///   - body: Builds the provider's error response (status, headers, body) for the request at mock time `now`.
    package static func register(
        on router: Router<BasicRequestContext>,
        provider: String,
        environment: MockEnvironment,
        _ body: @escaping @Sendable (_ request: Request, _ now: Date) -> HTTPResponseData
    ) {
        for path in [provider, "\(provider)/**"] {
            for method in self.methods {
                router.on(RouterPath(path), method: method) { request, _ -> Response in
                    body(request, environment.clock.now()).response
                }
            }
        }
    }
}
