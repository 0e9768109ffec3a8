import Foundation
package import PayCheckCore

/// The one pipeline every provider step goes through: place → encode → sign → send → decode → map.
///
/// - `call:` an HTTP operation: parameters are placed as the ``ProviderOperation`` declares (path, query, header,
///   body, idempotency header) and the provider adds its credentials (``Provider/authorize(_:context:)``), the body
///   is written with the declared codec, the provider signs the request as it will be sent
///   (``Provider/sign(_:context:)``: method, path and query, headers, final body bytes), the runner's transport
///   sends, and the provider's reader maps the answer to an ``Observation``.
/// - `call:` a local operation, `redirect:`, `deeplink:`: the provider computes the observation without HTTP.
/// - `payer:` and provider `mock:` actions: the `with:` mapping is posted as JSON to the mock's control API at
///   ``ControlAPI/action(provider:kind:name:)``; the provider may map a `payer:` answer to an outcome.
package struct ProviderExecutor: Sendable {
    /// The provider whose declarations drive the pipeline.
    package var provider: any Provider

    /// Creates an executor for a provider.
    package init(provider: any Provider) { self.provider = provider }

    /// Runs one provider step.
    package func perform(_ action: ProviderActionRequest, context: ProviderContext) async throws -> Observation {
        switch action.kind {
        case .call:
            if let operation = provider.operations.first(where: { $0.name == action.name }) {
                let request = try request(operation, parameters: action.parameters, auth: action.auth, context: context)
                for secret in request.secrets { context.addSecret(secret) }
                if let answer = request.localAnswer { return answer }
                let built = try encode(request, context: context)
                let response: HTTPResponseData
                do {
                    response = try await context.send(built)
                } catch let failure where !(failure is ProviderError) && !(failure is CancellationError) {
                    guard let observation = provider.unanswered(failure, of: operation, context: context) else { throw failure }
                    return observation
                }
                return try Self.read(response, of: operation, by: provider, context: context)
            }
            guard isLocal(.call, action.name) else { throw unknown(action) }
            if action.auth != nil {
                throw ProviderError.invalidStep("'auth' overrides apply to requests sent to \(provider.id); '\(action.name)' runs locally")
            }
            return try provider.performLocal(.call, action.name, parameters: action.parameters, context: context)
        case .payer, .mock:
            guard let control = provider.controlActions.first(where: { $0.kind == action.kind && $0.name == action.name }) else {
                throw unknown(action)
            }
            return try await perform(control, parameters: action.parameters, context: context)
        case .redirect, .deeplink:
            guard isLocal(action.kind, action.name) else { throw unknown(action) }
            return try provider.performLocal(action.kind, action.name, parameters: action.parameters, context: context)
        }
    }

    /// Builds the request of an operation, with the credentials the provider places in it (pure: no I/O).
    package func request(_ operation: ProviderOperation, parameters: Value, auth: Value?, context: ProviderContext) throws -> OutgoingRequest {
        var members = try Self.members(parameters, of: "'call: \(operation.name)'")
        var path = operation.path
        var query: [(name: String, value: String)] = []
        var headers = operation.headers
        var body: [String: Value] = [:]
        for parameter in operation.parameters {
            let given = members.removeValue(forKey: parameter.name)
            guard let value = given ?? parameter.defaultValue, value != .null else {
                if parameter.required {
                    throw ProviderError.invalidStep("'call: \(operation.name)' needs 'with: { \(parameter.name) }'")
                }
                continue
            }
            // A member the provider does not name, once templates are rendered (lint saw only literal keys).
            if let problem = parameter.shape?.problems(in: value, path: parameter.name, strict: false).first {
                throw ProviderError.invalidStep("'call: \(operation.name)': \(problem.message)" + (problem.hint.map { " (\($0))" } ?? ""))
            }
            switch parameter.placement {
            case .path:
                let text = try Self.scalarText(value, parameter.name, operation)
                guard !text.isEmpty else {
                    throw ProviderError.invalidStep("'call: \(operation.name)' needs a non-empty 'with: { \(parameter.name) }'")
                }
                path = path.replacingOccurrences(of: "{\(parameter.name)}", with: FormText.percentEncode(text, spaceAsPlus: false))
            case .query: query.append((parameter.name, try Self.scalarText(value, parameter.name, operation)))
            case .header(let name): headers.append((name, try Self.scalarText(value, parameter.name, operation)))
            case .body: body[parameter.name] = value
            }
        }
        if let header = operation.idempotencyHeader,
            let key = members.removeValue(forKey: ProviderOperation.idempotencyKeyParameter), key != .null
        {
            headers.append((header, try Self.scalarText(key, ProviderOperation.idempotencyKeyParameter, operation)))
        }
        if let extra = members.keys.sorted().first {
            let accepted = operation.acceptedKeys
            let near = Suggest.nearest(extra, in: accepted).map { " (did you mean '\($0)'?)" } ?? ""
            throw ProviderError.invalidStep(
                "unknown parameter '\(extra)' for 'call: \(operation.name)'\(near); accepted: \(accepted.joined(separator: ", "))")
        }
        var url = Self.join(context.baseURL, path)
        if !query.isEmpty {
            url +=
                "?"
                + query.map { FormText.percentEncode($0.name, spaceAsPlus: false) + "=" + FormText.percentEncode($0.value, spaceAsPlus: false) }
                .joined(separator: "&")
        }
        var request = OutgoingRequest(
            operation: operation, method: operation.method, url: url, headers: headers,
            body: operation.bodyCodec == .none ? nil : body, auth: auth)
        try provider.authorize(&request, context: context)
        return request
    }

    /// Writes the body of a request with the operation's codec, then lets the provider sign what will be sent.
    package func encode(_ request: OutgoingRequest, context: ProviderContext) throws -> HTTPRequestData {
        let credentials = context.credentials
        var headers = request.headers
        var bytes: [UInt8] = []
        if let body = request.body {
            let contentType: String
            switch request.operation.bodyCodec {
            case .none:
                contentType = ""
            case .json:
                bytes = JSONText.encodeBytes(.object(body))
                contentType = "application/json"
            case .form:
                bytes = Array(FormText.encode(FormText.pairs(of: body)).utf8)
                contentType = "application/x-www-form-urlencoded"
            case .xml(let root):
                guard let text = XMLValue.encode(.object([root: .object(body)])) else {
                    throw ProviderError.invalidStep("'call: \(request.operation.name)' has a body that cannot be written as XML")
                }
                bytes = Array(text.utf8)
                contentType = "application/xml"
            case .provider(let type):
                bytes = try provider.encodeBody(.object(body), for: request.operation, credentials: credentials)
                contentType = type
            }
            if !contentType.isEmpty, !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.insert(("Content-Type", contentType), at: 0)
            }
        }
        var signable = SignableRequest(
            operation: request.operation, method: request.method, baseURL: context.baseURL, url: request.url, headers: headers,
            body: bytes, auth: request.auth)
        try provider.sign(&signable, context: context)
        for secret in signable.secrets { context.addSecret(secret) }
        return HTTPRequestData(method: signable.method, url: signable.url, headers: signable.headers, body: signable.body)
    }

    /// Posts a control action to the mock host and lets the provider read the answer.
    func perform(_ action: ControlAction, parameters: Value, context: ProviderContext) async throws -> Observation {
        guard let controlURL = context.controlURL else {
            throw ProviderError.couldNotRun(
                "'\(action.kind.rawValue): \(action.name)' drives the PayCheck mock; this target has no control API "
                    + "(mark the case 'requires: [mock]')")
        }
        let members = try Self.members(parameters, of: "'\(action.kind.rawValue): \(action.name)'")
        for key in action.required where members[key] == nil || members[key] == .null {
            throw ProviderError.invalidStep("'\(action.kind.rawValue): \(action.name)' needs 'with: { \(key) }'")
        }
        for secret in provider.secretFieldNames { if let value = members[secret]?.interpolated, !value.isEmpty { context.addSecret(value) } }
        let request = ControlRequest.action(provider: provider.id, kind: action.kind, name: action.name, parameters: .object(members))
        let response = try await context.send(request.http(base: controlURL))
        let text = response.text
        let observation = Observation(status: response.status, headers: response.headers, body: Observation.parseBody(text), rawBody: text)
        return try provider.readControl(observation, action: action)
    }

    /// Reads an operation's answer: an answer that is no answer (empty, unreadable, the wrong media type) or a
    /// 5xx/429 the provider's reader does not classify as S is an S-class ``ServiceFailure``; the rest is the provider's.
    static func read(
        _ response: HTTPResponseData, of operation: ProviderOperation, by provider: any Provider, context: ProviderContext
    ) throws -> Observation {
        // Decoded and parsed once, here: the provider's reader takes this reading (``HTTPResponseData/plainObservation``).
        var response = response
        let plain = response.plainObservation
        response.reading = plain
        if let failure = ServiceFailure.unreadable(response, by: provider) {
            var observation = plain
            observation.error = failure
            return observation
        }
        var observation: Observation
        do {
            observation = try provider.read(response, of: operation, context: context)
        } catch let error as ProviderError {
            guard let failure = ServiceFailure.status(response) else { throw error }
            observation = plain
            observation.error = failure
            return observation
        }
        // A 5xx or 429 is a service failure whatever the body says, unless the provider's catalog classifies it S.
        if observation.error?.errorClass != .S, let failure = ServiceFailure.status(response) { observation.error = failure }
        return observation
    }

    /// Whether the provider answers this action locally.
    private func isLocal(_ kind: ProviderAction.Kind, _ name: String) -> Bool {
        provider.localActions[kind]?.contains { $0.name == name } ?? false
    }

    /// The error for an action lint would have refused.
    private func unknown(_ action: ProviderActionRequest) -> ProviderError {
        let known = provider.description.actions[action.kind] ?? []
        return .invalidStep(
            "unknown \(provider.id) \(action.kind.rawValue) action '\(action.name)'"
                + (known.isEmpty ? "" : " (known: \(known.joined(separator: ", ")))"))
    }

    /// The members of a `with:` mapping (`null` is an empty one).
    static func members(_ parameters: Value, of label: String) throws -> [String: Value] {
        switch parameters {
        case .null: return [:]
        case .object(let members): return members
        default: throw ProviderError.invalidStep("'with' of \(label) must be a mapping, got \(parameters.brief)")
        }
    }

    /// A scalar parameter as text.
    static func scalarText(_ value: Value, _ name: String, _ operation: ProviderOperation) throws -> String {
        switch value {
        case .string, .int, .double, .bool: return value.interpolated
        default: throw ProviderError.invalidStep("'with: { \(name) }' of 'call: \(operation.name)' must be a scalar, got \(value.brief)")
        }
    }

    /// `base` + `path` without a doubled slash.
    package static func join(_ base: String, _ path: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }
}
