/// The paths of the mock host's control API: the one place that spells them, for the runner, the adapters
/// (which drive `payer:` and provider `mock:` actions) and the mock host (which serves them).
package enum ControlAPI {
    /// The prefix of every control path; never a provider route (DESIGN.md §5).
    package static let root = "/__paycheck"

    /// The request header naming a run's clock scope, so that runs sharing one mock never see each other's
    /// `mock: clock` moves: the runner sends it on every request to the mock host, provider and control alike.
    package static let clockScopeHeader = "X-PayCheck-Clock-Scope"

    /// The request header carrying the control token a mock listening beyond loopback requires on its control API
    /// (`paycheck mock --allow-remote` prints the token; `paycheck run --control-token` sends it).
    package static let controlTokenHeader = "X-PayCheck-Control-Token"

    /// `/__paycheck/<name>`, e.g. `clock`, `reset`, `journal`, `faults`.
    package static func path(_ name: String) -> String { root + "/" + name }

    /// The prefix of one provider's control actions: `/__paycheck/<provider>`.
    package static func providerRoot(_ provider: String) -> String { root + "/" + provider }

    /// The route of one provider control action: `/__paycheck/<provider>/<kind>/<name>` (always `POST`, JSON body).
    package static func action(provider: String, kind: ProviderAction.Kind, name: String) -> String {
        providerRoot(provider) + "/" + kind.rawValue + "/" + name
    }

    /// Whether `path` belongs to the control API.
    package static func contains(_ path: String) -> Bool {
        path == root || path.hasPrefix(root + "/")
    }

    /// The base a merchant's backend is given instead of the mock's own URL: `/__paycheck/scope/<scope>`. A request
    /// under it is served as the same path without the prefix, in the clock scope `<scope>`, and is journaled as the
    /// merchant's (not the runner's), so a backend that cannot send the scope header still shares its run's clock.
    package static func scopedRoot(_ scope: String) -> String { root + "/scope/" + scope }

    /// Splits a path under ``scopedRoot(_:)`` into its scope and the path it stands for (`/` when nothing follows);
    /// `nil` for any other path.
    package static func scopedPath(_ path: String) -> (scope: String, rest: String)? {
        let prefix = root + "/scope/"
        guard path.hasPrefix(prefix) else { return nil }
        let tail = path.dropFirst(prefix.count)
        let scope = tail.prefix { $0 != "/" }
        guard !scope.isEmpty else { return nil }
        let rest = tail.dropFirst(scope.count)
        return (String(scope), rest.isEmpty ? "/" : String(rest))
    }
}
