package import Foundation
package import Hummingbird
import PayCheckCore
package import PayCheckProviders
import Synchronization

/// The stateful mock of the Yuno API in sandbox (providers.md §3, corrected by §3.13), under `/yuno/v1`: the two key
/// headers, customers, checkout sessions (`used`) and their payment methods, single-use one-time tokens, payments
/// driven by the test gateway's cards and the description trick through every status × sub_status of §3.6 (captures,
/// cancel-or-refund, the payer in the SDK, the provider's later answers, PIX expiry on the mock clock),
/// `X-Idempotency-Key` through the shared store, the webhooks API and signed webhooks with the 7-attempt schedule
/// (§3.8), and the `{code, messages}` error envelope.
package struct YunoMock: ProviderMock {
    package var provider: any Provider { YunoProvider() }
    /// Every status of §3.6; each is reached by a case of `Suites/yuno/outcomes.yaml`.
    package var nativeStates: [String] { YunoTransitions.pairs.keys.map(\.rawValue).sorted() }

    let store: YunoStore

    package init() { self.init(random: { UInt64.random(in: .min ... .max) }) }
    package init(random: @escaping @Sendable () -> UInt64) { self.store = YunoStore { YunoState(random: random) } }

    package func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        let context = YunoContext(store: store, environment: environment)
        YunoAPIRoutes(context: context).register(on: router)
        YunoControlRoutes(context: context).register(on: router)
    }

    /// An unknown path is 404 `NOT_FOUND` "Not Found" (§3.13 P1-11); another method on a known path is 405
    /// `UNSUPPORTED_METHOD` "Unsupported method" (§3.7), decided before the keys are checked.
    package func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData {
        guard allowed.isEmpty else { return YunoFailure(405, "UNSUPPORTED_METHOD", "Unsupported method").data }
        let hint = Self.doubledSegmentHint(path)
        guard !hint.isEmpty else { return YunoFailure(404, "NOT_FOUND", "Not Found").data }
        // Yuno's own text first; the mock's hint for a base URL that already ended in /v1 second.
        return HTTPResponseData.json(
            status: 404,
            .object([
                "code": "NOT_FOUND", "messages": .array([.string("Not Found"), .string("PayCheck mock:" + hint)]),
            ]))
    }

    package func reset() async { store.reset() }
}
