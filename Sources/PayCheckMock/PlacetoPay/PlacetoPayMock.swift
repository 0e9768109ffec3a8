package import Hummingbird
package import PayCheckProviders

/// The stateful mock of PlacetoPay Checkout (providers.md §1), served under `/placetopay`.
///
/// Provider API (all `POST` with JSON bodies, §1.1): `/placetopay/api/session` (create), `/api/session/{id}`
/// (query), `/api/session/{id}/cancel`, `/api/transaction`, `/api/reverse` (legacy), `/api/collect`; the process
/// URL `GET /placetopay/session/{id}/{hash}` shows a small page. Control API under `/__paycheck/placetopay/`:
/// the declared actions of ``PlacetoPayControlAction`` (`payer/pay`, `payer/cancel`, `payer/abandon`, `mock/site`,
/// `mock/notifications`, `mock/notify`, all `POST`) and `GET sites/{login}`.
///
/// The default site is `paycheck-test` / `paycheck-test-secret-key`; `paycheck-inactive`, `paycheck-expired` and
/// `paycheck-expired-credentials` answer auth codes 104–106. All state is per instance.
package struct PlacetoPayMock: ProviderMock {
    /// The PlacetoPay adapter: id, mock credentials, base path and control actions.
    package var provider: any Provider { PlacetoPayProvider() }
    /// Session and transaction states the mock reports (providers.md §1.5, §1.7); `FAILED` is the error envelope.
    package var nativeStates: [String] { PlacetoPayStatusName.paymentStates.map(\.rawValue) }

    /// The mock's state.
    let store: PlacetoPayStore

    /// Creates a mock with only the default sites, drawing process-URL hashes and tokens from the system RNG.
    package init() {
        self.init(random: { UInt64.random(in: .min ... .max) })
    }

    /// Creates a mock drawing random bits from `random` (inject a seeded source for reproducible URLs and tokens).
    package init(random: @escaping @Sendable () -> UInt64) {
        self.store = PlacetoPayStore { PlacetoPayState(random: random) }
    }

    /// Adds the provider routes and the control routes.
    package func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        let context = PlacetoPayContext(store: self.store, environment: environment)
        PlacetoPayAPIRoutes(context: context).register(on: router)
        PlacetoPayControlRoutes(context: context).register(on: router)
    }

    /// Forgets everything except the default sites (which return to their defaults).
    package func reset() async {
        self.store.reset()
    }
}
