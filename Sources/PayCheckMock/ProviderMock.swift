import Hummingbird

/// A stateful mock of one payment provider, hosted by ``MockHost``.
///
/// A provider mock serves its API under `/{id}/...`. It may add its own control routes under
/// `/__paycheck/{id}/...`. Every request it receives has already been recorded in the journal and
/// checked against injected faults by the host. Scope any middleware you add to your own group
/// (`router.group("\(id)")`), because middleware added to the router itself also wraps routes that
/// are registered later.
public protocol ProviderMock: Sendable {
    /// The URL prefix of this provider, e.g. `placetopay`; also its name in `/__paycheck/health`.
    var id: String { get }

    /// Adds this provider's routes to `router`.
    func register(on router: Router<BasicRequestContext>, environment: MockEnvironment)

    /// Forgets all state (sessions, idempotency keys, nonces); called by `POST /__paycheck/reset`.
    func reset() async
}
