package import PayCheckProviders

/// The built-in providers: each line pairs a provider's mock with its adapter (``ProviderMock/provider``), the
/// single source of its id, mock credentials, base paths and control actions. Adding a provider is one line here.
package enum MockRegistry {
    /// A fresh mock of every built-in provider (mocks hold state, so each host gets its own).
    package static var builtIn: [any ProviderMock] {
        [
            PlacetoPayMock(),
            KhipuMock(),
            MollieMock(),
            MITMock(),
            YunoMock(),
        ]
    }

    /// The reference merchants served next to `providers` (each only when its provider is among them).
    static func referenceMerchants(
        for providers: [any ProviderMock], baseURL: @escaping @Sendable () -> String, outbound: any OutboundHTTP
    ) -> [any ReferenceMerchant] {
        var merchants: [any ReferenceMerchant] = []
        if let mollie = providers.first(where: { $0.id == "mollie" }) {
            merchants.append(MollieCheckoutDemoMerchant(mollie: mollie, baseURL: baseURL, outbound: outbound))
        }
        return merchants
    }

    /// The adapters of the built-in providers, for the runner and for lint.
    package static var providers: ProviderRegistry { ProviderRegistry(builtIn.map(\.provider)) }
}
