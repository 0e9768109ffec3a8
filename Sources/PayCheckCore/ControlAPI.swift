/// The paths of the mock host's control API: the one place that spells them, for the runner, the adapters
/// (which drive `payer:` and provider `mock:` actions) and the mock host (which serves them).
public enum ControlAPI {
    /// The prefix of every control path; never a provider route (DESIGN.md §5).
    public static let root = "/__paycheck"

    /// The request header naming a run's clock scope, so that runs sharing one mock never see each other's
    /// `mock: clock` moves: the runner sends it on every request to the mock host, provider and control alike.
    public static let clockScopeHeader = "X-PayCheck-Clock-Scope"

    /// The request header carrying the control token a mock listening beyond loopback requires on its control API
    /// (`paycheck mock --allow-remote` prints the token; `paycheck run --control-token` sends it).
    public static let controlTokenHeader = "X-PayCheck-Control-Token"

    /// `/__paycheck/<name>`, e.g. `clock`, `reset`, `journal`, `faults`.
    public static func path(_ name: String) -> String { root + "/" + name }

    /// The prefix of one provider's control actions: `/__paycheck/<provider>`.
    public static func providerRoot(_ provider: String) -> String { root + "/" + provider }

    /// The route of one provider control action: `/__paycheck/<provider>/<kind>/<name>` (always `POST`, JSON body).
    public static func action(provider: String, kind: ProviderAction.Kind, name: String) -> String {
        providerRoot(provider) + "/" + kind.rawValue + "/" + name
    }

    /// Whether `path` belongs to the control API.
    public static func contains(_ path: String) -> Bool {
        path == root || path.hasPrefix(root + "/")
    }
}
