import Foundation
package import PayCheckCore

/// The khipu adapter (providers.md §2, corrected by §2.12): API 3.0 (`x-api-key`, JSON) and API 2.0 (form requests
/// signed with HMAC-SHA256, `Authorization: receiverId:hash`), one base URL for both (`/v3/…` and `/api/2.0/…`).
///
/// khipu has no sandbox host (§2.1): `--target sandbox` uses the production hosts with a developer-mode account —
/// `https://khipu.com/api/2.0` and, for 3.0, `https://payment-api.khipu.com/v3` (the signer moves 3.0 requests
/// there).
package struct KhipuProvider: Provider {
    /// `khipu`.
    package let id = "khipu"

    /// Creates the adapter.
    package init() {}

    /// `receiverId` (public), `secret` (the 2.0 signing key and the 3.0 notification key) and `apiKey` (3.0).
    package var credentialFields: [CredentialField] {
        [
            CredentialField(name: "receiverId", secret: false, environmentVariable: "PAYCHECK_KHIPU_RECEIVER_ID"),
            CredentialField(name: "secret", secret: true, environmentVariable: "PAYCHECK_KHIPU_SECRET"),
            CredentialField(name: "apiKey", secret: true, environmentVariable: "PAYCHECK_KHIPU_API_KEY"),
        ]
    }

    /// The developer-mode account the PayCheck mock knows out of the box.
    package var mockCredentials: [String: String] {
        ["receiverId": "985101", "secret": "paycheck-khipu-secret", "apiKey": "paycheck-khipu-api-key"]
    }

    /// The production host with a developer-mode account (§2.1); 3.0 requests go to `payment-api.khipu.com`.
    package var sandboxBaseURL: String { "https://khipu.com" }
    /// Drift noise: messages are free text.
    package var driftNoise: [String] { Self.commonDriftNoise + ["message"] }

    /// `status` and `status_detail` → canonical outcomes.
    package var outcomeMapping: OutcomeMapping { Self.mapping }

    /// Error bodies by HTTP status.
    package var errorCatalog: ErrorCatalog { Self.catalog }

    /// The secret, the API key, and the headers that carry them.
    package var secretFieldNames: [String] { ["secret", "apiKey", "x-api-key", "Authorization"] }

    /// Every HTTP operation of §2.3.
    package var operations: [ProviderOperation] { KhipuOperation.allCases.compactMap(\.declaration) }

    /// The payer on the DemoBank page and the mock's own actions.
    package var controlActions: [ControlAction] { KhipuControlAction.all }

    /// `verifyNotification` and the app hand-off of the seed (§2.8, §2.12 B12).
    package var localActions: [ProviderAction.Kind: [ActionSpec]] {
        [
            .call: [ActionSpec(KhipuOperation.verifyNotification.rawValue, parameters: ["header", "body", "secret"])],
            .deeplink: [
                ActionSpec("open", parameters: ["app_url", "installed"]),
                ActionSpec("installed", parameters: ["pending_url"]),
                ActionSpec("callback", parameters: ["url"]),
            ],
        ]
    }

    /// 3.0 requests carry `x-api-key` (§2.12 B14); 2.0 requests are signed once encoded (``sign(_:context:)``).
    package func authorize(_ request: inout OutgoingRequest, context: ProviderContext) throws {
        let overrides = try KhipuAuthOverrides(parsing: request.auth)
        guard let operation = KhipuOperation(rawValue: request.operation.name), !operation.isV2 else { return }
        if context.baseURL == sandboxBaseURL { request.url = request.url.replacingOccurrences(of: "https://khipu.com/v3", with: "https://payment-api.khipu.com/v3") }
        guard !overrides.omit else { return }
        guard let key = overrides.apiKey ?? context.credentials["apiKey"] else {
            throw ProviderError.couldNotRun("khipu 3.0 needs the credential 'apiKey' (PAYCHECK_KHIPU_API_KEY for the sandbox)")
        }
        request.setHeader("x-api-key", key)
        request.secrets.append(key)
    }

    /// Signs a 2.0 request with HMAC-SHA256 over the method, the URL and the decoded parameters as sent: the query's
    /// and the form body's bytes (§2.2). A `tamper` override changes a parameter after signing.
    package func sign(_ request: inout SignableRequest, context: ProviderContext) throws {
        guard let operation = KhipuOperation(rawValue: request.operation.name), operation.isV2 else { return }
        let overrides = try KhipuAuthOverrides(parsing: request.auth)
        guard let receiver = overrides.receiverId ?? context.credentials["receiverId"], let secret = overrides.secret ?? context.credentials["secret"] else {
            throw ProviderError.couldNotRun("khipu 2.0 needs the credentials 'receiverId' and 'secret' (PAYCHECK_KHIPU_RECEIVER_ID, PAYCHECK_KHIPU_SECRET)")
        }
        if let other = overrides.secret { request.secrets.append(other) }
        guard !overrides.omit else { return }
        let hasBody = request.operation.bodyCodec != .none
        var form = hasBody ? FormText.decodePairs(String(decoding: request.body, as: UTF8.self)) : []
        let toSign = KhipuSignature.stringToSign(method: request.method, url: request.urlWithoutQuery, parameters: request.queryItems + form)
        let hash = KhipuSignature.hash(toSign, secret: secret)
        request.setHeader("Authorization", "\(receiver):\(hash)")
        request.secrets.append(hash)
        guard !overrides.tamper.isEmpty else { return }
        for (name, value) in overrides.tamper {
            if hasBody {
                form = form.filter { $0.name != name } + FormText.pairs(of: [name: value])
            } else {
                request.url = Self.replacingQuery(request.url, name, value.interpolated)
            }
        }
        if hasBody { request.body = Array(FormText.encode(form).utf8) }
    }

    /// Maps payment-shaped answers by `status` and `status_detail`, and error bodies by their `status`.
    package func read(_ response: HTTPResponseData, of operation: ProviderOperation) throws -> Observation {
        var observation = response.plainObservation
        guard let body = observation.body else { return observation }
        if response.status >= 400 {
            let code = body["status"]?.intValue.map(String.init) ?? String(response.status)
            guard let entry = errorCatalog.entry(code) else {
                throw ProviderError.nonConformance(
                    "khipu answered HTTP \(response.status) with status '\(code)'", expected: "a status of the error catalog (providers.md §2.6)")
            }
            var message = body["message"]?.stringValue ?? entry.message
            if let first = body["errors"]?.arrayValue?.first, let field = first["field"]?.stringValue {
                message += " (\(field): \(first["message"]?.stringValue ?? ""))"
            }
            observation.error = ErrorCatalog.observed(entry, message: message)
            return observation
        }
        if let status = body["status"]?.stringValue {
            let detail = body["status_detail"]?.stringValue
            try map(status, reason: detail.flatMap { $0.isEmpty ? nil : $0 }, in: "the \(operation.name) answer (providers.md §2.9)", into: &observation)
        }
        return observation
    }

    /// A `payer:` or `mock: conciliate` answer carries the payment's state after the action.
    package func readControl(_ observation: Observation, action: ControlAction) throws -> Observation {
        var observation = observation
        guard action.kind == .payer || ["conciliate", "markPaid"].contains(action.name), let status = observation.status, (200..<300).contains(status),
            let state = observation.body?["payment"]?["status"]?.stringValue
        else { return observation }
        try map(state, reason: observation.body?["payment"]?["status_detail"]?.stringValue, in: "the payer's \(action.name) answer", into: &observation)
        return observation
    }

    /// `verifyNotification` and the app hand-off.
    package func performLocal(_ kind: ProviderAction.Kind, _ name: String, parameters: Value, context: ProviderContext) throws -> Observation {
        switch (kind, name) {
        case (.call, KhipuOperation.verifyNotification.rawValue):
            guard let header = parameters["header"]?.stringValue, let body = parameters["body"]?.stringValue else {
                throw ProviderError.invalidStep("'call: verifyNotification' needs 'with: { header, body }' (the x-khipu-signature header and the raw body)")
            }
            guard let secret = parameters["secret"]?.stringValue ?? context.credentials["secret"] else {
                throw ProviderError.couldNotRun("khipu needs the credential 'secret' to verify a notification")
            }
            if let given = parameters["secret"]?.stringValue { context.addSecret(given) }
            let valid = KhipuSignature.verifyNotification(header: header, body: Array(body.utf8), secret: secret)
            return Self.local(["valid": .bool(valid)])
        case (.deeplink, _):
            return try KhipuHandOff.perform(name, parameters: parameters)
        default:
            throw ProviderError.invalidStep("khipu has no local \(kind.rawValue) action '\(name)'")
        }
    }

    /// An observation of a local answer.
    static func local(_ members: [String: Value], outcome: Outcome? = nil) -> Observation {
        let body = Value.object(members)
        return Observation(status: nil, body: body, rawBody: JSONText.encode(body), outcome: outcome)
    }

    /// `url` without its query, and the query's decoded pairs.
    static func split(_ url: String) -> (String, [(name: String, value: String)]) {
        guard let mark = url.firstIndex(of: "?") else { return (url, []) }
        return (String(url[..<mark]), FormText.decodePairs(String(url[url.index(after: mark)...])))
    }

    /// `url` with query parameter `name` set to `value`.
    static func replacingQuery(_ url: String, _ name: String, _ value: String) -> String {
        let (base, pairs) = split(url)
        let kept = pairs.filter { $0.name != name } + [(name, value)]
        return base + "?" + kept.map { FormText.percentEncodeRFC3986($0.name) + "=" + FormText.percentEncodeRFC3986($0.value) }.joined(separator: "&")
    }
}
