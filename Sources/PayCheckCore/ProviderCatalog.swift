/// What the loader needs to know about providers to validate suites: which providers exist and which
/// action names each accepts. The providers module supplies the real catalog; tests pass their own.
public protocol ProviderCatalog: Sendable {
    /// The description of a provider, or `nil` when no provider has that id.
    func provider(_ id: String) -> ProviderDescription?
    /// Every registered provider id.
    var providerIDs: [String] { get }
}

/// The names a provider accepts for each provider-dispatched step kind.
public struct ProviderDescription: Sendable {
    /// The provider id used in `provider:`.
    public var id: String
    /// Action names by step kind (`call` operations, `payer` actions, provider `mock` actions, `redirect`, `deeplink`).
    public var actions: [ProviderAction.Kind: [String]]

    /// Creates a description.
    public init(id: String, actions: [ProviderAction.Kind: [String]]) {
        self.id = id
        self.actions = actions
    }
}

/// A catalog with no providers: raw HTTP suites only.
public struct EmptyProviderCatalog: ProviderCatalog {
    /// Creates the empty catalog.
    public init() {}
    /// Always `nil`.
    public func provider(_ id: String) -> ProviderDescription? { nil }
    /// No ids.
    public var providerIDs: [String] { [] }
}

/// The `mock:` actions the mock host itself answers, for every suite (with or without a provider).
public enum GenericMockAction: String, Sendable, CaseIterable {
    /// `mock: clock` with `with: { advance: 31m }` or `with: { set: <ISO 8601> }`.
    case clock
    /// `mock: reset` — clears every mock's state.
    case reset
    /// `mock: journal` with optional `with: { path: /prefix }` — the requests the mock received, as the step's body.
    case journal
    /// `mock: fault` with `with: { path, count, kind, status, delayMs }` — the next responses of a route misbehave.
    case fault
}
