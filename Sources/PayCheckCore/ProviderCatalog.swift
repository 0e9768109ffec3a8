/// What the loader needs to know about providers to validate suites: which providers exist and which
/// actions each accepts, with their `with:` and `auth:` keys. The providers module derives the real
/// catalog from each provider's declarations; tests pass their own.
package protocol ProviderCatalog: Sendable {
    /// The description of a provider, or `nil` when no provider has that id.
    func provider(_ id: String) -> ProviderDescription?
    /// Every registered provider id.
    var providerIDs: [String] { get }
}

/// The kind of value a `with:` parameter takes, where a provider declares one (lint checks literal values).
package enum ValueKind: String, Sendable, Hashable {
    /// A mapping.
    case object
    /// A list.
    case array
    /// Text.
    case string
    /// A number.
    case number
    /// `true` or `false`.
    case boolean

    /// The words lint uses for it: "a mapping", "a list", …
    package var described: String {
        switch self {
        case .object: "a mapping"
        case .array: "a list"
        case .string: "text"
        case .number: "a number"
        case .boolean: "true or false"
        }
    }
}

/// One action a provider accepts for a step kind, as lint sees it.
package struct ActionSpec: Sendable, Hashable {
    /// The action or operation name.
    package var name: String
    /// The `with:` keys it accepts; `nil` accepts any mapping.
    package var parameters: [String]?
    /// The kind of value some `with:` keys take (a literal of another kind is a lint error; `null` is always allowed).
    package var kinds: [String: ValueKind] = [:]
    /// The `with:` keys a step must give (the run refuses the step without them, so lint does too).
    package var required: [String] = []
    /// The shapes of the `with:` values that have one (nested members, kinds, choices), by key.
    package var shapes: [String: RequestShape] = [:]
    /// The `auth:` override keys it accepts; empty when it takes no `auth:`.
    package var authKeys: [String]
    /// Whether a case that performs it must run alone (it changes state every case shares).
    package var runsAlone: Bool

    /// Creates a spec.
    package init(_ name: String, parameters: [String]? = nil, authKeys: [String] = [], runsAlone: Bool = false) {
        self.name = name
        self.parameters = parameters
        self.authKeys = authKeys
        self.runsAlone = runsAlone
    }
}

/// The actions a provider accepts for each provider-dispatched step kind.
package struct ProviderDescription: Sendable {
    /// The provider id used in `provider:`.
    package var id: String
    /// The actions by step kind (`call` operations, `payer` actions, provider `mock` actions, `redirect`, `deeplink`).
    package var specs: [ProviderAction.Kind: [ActionSpec]]
    /// Why a merchant contract's `providers.<id>.notificationUrl` does nothing for this provider (the backend gives the
    /// provider its notification URL itself), or `nil` when the run installs it in the provider's account.
    package var contractNotificationURLUnused: String?
    /// The names of the provider's credentials (`apiKey`, `login`, …): what a contract's `{{ credentials.<id>.<name> }}`
    /// can read.
    package var credentialNames: [String] = []

    /// Creates a description from full specs.
    package init(id: String, specs: [ProviderAction.Kind: [ActionSpec]]) {
        self.id = id
        self.specs = specs
    }

    /// Creates a description that knows only names (any `with:`, no `auth:`).
    package init(id: String, actions: [ProviderAction.Kind: [String]]) {
        self.init(id: id, specs: actions.mapValues { $0.map { ActionSpec($0) } })
    }

    /// Action names by step kind.
    package var actions: [ProviderAction.Kind: [String]] { specs.mapValues { $0.map(\.name) } }

    /// The spec of one action.
    package func spec(_ kind: ProviderAction.Kind, _ name: String) -> ActionSpec? {
        specs[kind]?.first { $0.name == name }
    }
}

/// A catalog with no providers: raw HTTP suites only.
struct EmptyProviderCatalog: ProviderCatalog {
    /// Creates the empty catalog.
    package init() {}
    /// Always `nil`.
    package func provider(_ id: String) -> ProviderDescription? { nil }
    /// No ids.
    package var providerIDs: [String] { [] }
}

/// The `mock:` actions the mock host itself answers, for every suite (with or without a provider).
package enum GenericMockAction: String, Sendable, CaseIterable {
    /// `mock: clock` with `with: { advance: 31m }` or `with: { set: <ISO 8601> }`.
    case clock
    /// `mock: reset` — clears every mock's state.
    case reset
    /// `mock: journal` with optional `with: { path: /prefix }` — the requests the mock received, as the step's body.
    case journal
    /// `mock: fault` with `with: { provider, operation | path, kind, count | ratio, … }` (``FaultSpec``) — the next
    /// answers of an operation, or the next notifications of a provider, misbehave.
    case fault

    /// The lint spec: accepted `with:` keys, and whether the case must run alone.
    package var spec: ActionSpec {
        switch self {
        case .clock: ActionSpec(rawValue, parameters: ["advance", "set", "reset"], runsAlone: true)
        case .reset: ActionSpec(rawValue, parameters: [], runsAlone: true)
        case .journal: ActionSpec(rawValue, parameters: ["path"])
        // Faults are host-wide, so a case that injects one runs alone (no other case sees its fault).
        case .fault: ActionSpec(rawValue, parameters: FaultSpec.parameters, runsAlone: true)
        }
    }
}
