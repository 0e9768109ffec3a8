package import PayCheckCore

/// A request to the mock host's control API (``ControlAPI``): the one place that builds them, for the runner's
/// `mock:` steps and merchant evidence, the adapters' `payer:`/`mock:` actions and a session's account set-up.
/// Who sends it decides the transport (recorded in a case's transcript or not); the clock scope and control token
/// are added by the run's transport, or given here where no such transport is in between.
package enum ControlRequest: Sendable {
    /// `POST /__paycheck/clock` with a clock adjustment (`advance`, `set` or `reset`).
    case clock(Value)
    /// `POST /__paycheck/reset`: every store, fault, clock and log back to the start.
    case reset
    /// `POST /__paycheck/faults` with a fault specification.
    case fault(Value)
    /// `GET /__paycheck/journal`: the records under `path`, of one scope and origin, numbered from `from`.
    case journal(path: String? = nil, scope: String? = nil, origin: RecordedRequest.Origin? = nil, from: Int? = nil)
    /// `GET /__paycheck/webhooks`: the webhook attempts of one scope numbered from `from`.
    case webhooks(scope: String? = nil, from: Int? = nil)
    /// `POST /__paycheck/<provider>/<kind>/<name>`: a provider's `payer:` or `mock:` action.
    case action(provider: String, kind: ProviderAction.Kind, name: String, parameters: Value)

    /// The HTTP request against the mock host at `base` (its control URL), with `headers` added (a clock scope or a
    /// control token where the transport does not add them).
    package func http(base: String, headers extra: [(name: String, value: String)] = []) -> HTTPRequestData {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        let json = [(name: "Content-Type", value: "application/json")] + extra
        switch self {
        case .clock(let adjustment):
            return HTTPRequestData(method: "POST", url: base + ControlAPI.path("clock"), headers: json, body: JSONText.encodeBytes(adjustment))
        case .reset:
            return HTTPRequestData(method: "POST", url: base + ControlAPI.path("reset"), headers: json, body: Array("{}".utf8))
        case .fault(let specification):
            return HTTPRequestData(method: "POST", url: base + ControlAPI.path("faults"), headers: json, body: JSONText.encodeBytes(specification))
        case .journal(let path, let scope, let origin, let from):
            let query = Self.query([("path", path), ("origin", origin?.rawValue), ("scope", scope), ("from", from.map(String.init))])
            return HTTPRequestData(method: "GET", url: base + ControlAPI.path("journal") + query, headers: extra)
        case .webhooks(let scope, let from):
            let query = Self.query([("scope", scope), ("from", from.map(String.init))])
            return HTTPRequestData(method: "GET", url: base + ControlAPI.path("webhooks") + query, headers: extra)
        case .action(let provider, let kind, let name, let parameters):
            return HTTPRequestData(
                method: "POST", url: base + ControlAPI.action(provider: provider, kind: kind, name: name), headers: json,
                body: JSONText.encodeBytes(parameters))
        }
    }

    /// `?name=value&…` of the given parameters, percent-encoded; empty when none is given.
    private static func query(_ parameters: [(String, String?)]) -> String {
        let pairs = parameters.compactMap { name, value in value.map { name + "=" + FormText.percentEncode($0, spaceAsPlus: false) } }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }

    /// The journal page of a `GET /__paycheck/journal` answer; `nil` for an error or an answer that is not one.
    package static func journalPage(_ response: HTTPResponseData) -> JournalPage? {
        guard response.status == 200, let json = JSONText.parse(response.text) else { return nil }
        return JournalPage(json: json)
    }

    /// The webhook attempts of a `GET /__paycheck/webhooks` answer; `nil` for an error or an answer that is not one.
    package static func webhookAttempts(_ response: HTTPResponseData) -> [WebhookAttempt]? {
        guard response.status == 200, let items = JSONText.parse(response.text)?.arrayValue else { return nil }
        return items.compactMap(WebhookAttempt.init(json:))
    }
}
