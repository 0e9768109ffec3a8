package import PayCheckCore
package import Hummingbird
import MollieCheckoutDemoBackend
import PayCheckProviders

/// An example merchant backend the mock host serves next to a provider's mock, so that a suite can check a
/// merchant-side contract (the app → backend → provider → webhook → backend loop) without anything else running.
///
/// A reference merchant reaches its provider only over HTTP, through the host's ``OutboundHTTP``, exactly as a
/// merchant's own backend would reach the standalone mock.
package protocol ReferenceMerchant: Sendable {
    /// The provider whose mock the merchant talks to; it is served only when that provider is hosted.
    var providerID: String { get }
    /// Where the merchant is served on the host, e.g. `/merchants/mollie-checkout-demo`.
    var path: String { get }
    /// Adds the merchant's routes to `router`.
    func register(on router: Router<BasicRequestContext>)
    /// Forgets the merchant's own state; called with the host's reset.
    func reset() async
}

/// Mollie's iOS Checkout demo backend (providers.md §4.0), with the host's Mollie mock as its Mollie.
struct MollieCheckoutDemoMerchant: ReferenceMerchant {
    let providerID = "mollie"
    let path = MollieCheckoutDemoBackend.mountPath
    private let backend: MollieCheckoutDemoBackend

    /// Creates the merchant for the hosted `mollie` mock; `baseURL` is the host's own base URL, known once bound.
    init(mollie: any ProviderMock, baseURL: @escaping @Sendable () -> String, outbound: any OutboundHTTP) {
        let path = self.path
        let mollieRoot = mollie.provider.mockBasePaths.first ?? "/mollie"
        self.backend = MollieCheckoutDemoBackend(
            mollieBaseURL: { baseURL() + mollieRoot }, publicBaseURL: { baseURL() + path },
            apiKey: mollie.provider.mockCredentials["apiKey"] ?? "", http: ScopedOutbound(outbound: outbound))
    }

    func register(on router: Router<BasicRequestContext>) {
        self.backend.addRoutes(to: router.group(RouterPath(self.path)))
    }

    func reset() async {
        self.backend.reset()
    }
}

/// The host's ``OutboundHTTP`` for a reference merchant: a request made while handling a request of some clock
/// scope carries that scope, so the merchant's calls to the mock read the same mock time as the run that called it.
private struct ScopedOutbound: MollieHTTP {
    let outbound: any OutboundHTTP

    func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8]) {
        var headers = headers
        if ClockScope.current != .default { headers.append((ClockScope.headerName, ClockScope.current.id)) }
        return try await self.outbound.send(method: method, url: url, headers: headers, body: body)
    }
}
