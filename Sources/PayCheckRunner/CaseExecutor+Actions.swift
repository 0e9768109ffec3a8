import Foundation
import PayCheckCore
import PayCheckProviders

extension CaseExecutor {
    /// Runs `set:` and `wait:` steps, which have no response; `nil` for every other kind.
    mutating func performLocal(_ step: Step) async -> StepResult? {
        switch step.kind {
        case .set(let bindings):
            for binding in bindings {
                do {
                    variables[binding.name] = try renderer.render(binding.value)
                } catch {
                    return StepResult(
                        name: step.summary, location: error.location, issue: Task.isCancelled ? cancellationIssue : .invalidStep(StepProblem(.template, redacted(message(error)))))
                }
            }
            return StepResult(name: step.summary, location: step.location)
        case .wait(let seconds):
            // Never past the run deadline: a longer wait stops there, timed out.
            let left = deadline.map { $0.timeIntervalSince(runner.clock.now()) } ?? .infinity
            let wallStart = DispatchTime.now().uptimeNanoseconds
            func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9 }
            do {
                try await runner.clock.sleep(seconds: max(0, min(seconds, left)))
                if seconds > left {
                    return StepResult(name: step.summary, location: step.location, issue: cancellationIssue, duration: elapsed())
                }
                return StepResult(name: step.summary, location: step.location, duration: seconds)
            } catch {
                return StepResult(name: step.summary, location: step.location, issue: cancellationIssue, duration: elapsed())
            }
        case .http, .provider, .merchant:
            return nil
        }
    }

    /// Performs an action that produces an observation.
    func perform(_ step: Step) async throws -> Observation {
        switch step.kind {
        case .http(let http):
            let request = try buildRequest(http)
            let response = try await recorder.send(request, timeout: timeout(for: step))
            return CaseExecutor.observation(from: response)
        case .provider(let action):
            let parameters = try renderer.render(action.parameters)
            let auth = try action.auth.map { try renderer.render($0) }
            if action.kind == .mock, let generic = GenericMockAction(rawValue: action.name) {
                return try await performGeneric(generic, parameters: parameters, step: step)
            }
            guard let providerID = suite.provider, let executor = runner.providers.executor(providerID) else {
                throw ProviderError.invalidStep("unknown provider '\(suite.provider ?? "")'")
            }
            let recorder = self.recorder
            let seconds = timeout(for: step)
            let context = ProviderContext(
                baseURL: endpoints.providerURL ?? "", controlURL: endpoints.controlURL, credentials: endpoints.credentials,
                now: runner.clock.now, randomBytes: runner.randomBytes,
                send: { try await recorder.send($0, timeout: seconds) },
                addSecret: { _ = recorder.addSecret($0) })
            return try await executor.perform(ProviderActionRequest(kind: action.kind, name: action.name, parameters: parameters, auth: auth), context: context)
        case .merchant(let action):
            guard let merchant else { throw MerchantExecutor.notConfigured(action) }
            return try await merchant.perform(
                action, parameters: try renderer.render(action.parameters), variables: variables, timeout: timeout(for: step),
                expectsStatus: step.expect?.status != nil)
        case .set, .wait:
            return Observation(status: nil)
        }
    }

    /// The mock host's own actions, through its control API.
    func performGeneric(_ action: GenericMockAction, parameters: Value, step: Step) async throws -> Observation {
        guard let control = endpoints.controlURL else {
            throw ProviderError.couldNotRun(
                "'mock: \(action.rawValue)' needs the mock's control API; target '\(runner.configuration.target.description)' has none (mark the case 'requires: [mock]')")
        }
        let request: ControlRequest
        switch action {
        case .clock: request = .clock(parameters)
        case .reset: request = .reset
        case .journal: request = .journal(path: parameters["path"]?.interpolated)
        case .fault: request = .fault(parameters)
        }
        let response = try await recorder.send(request.http(base: control), timeout: timeout(for: step))
        if response.status >= 400 {
            throw ProviderError.invalidStep("the mock refused 'mock: \(action.rawValue)' with \(response.status): \(response.text.prefix(300))")
        }
        return CaseExecutor.observation(from: response)
    }

    /// Renders an `http:` step into a request (with `renderer`, or the case's variables); a URL starting with `/`
    /// is resolved against `base` (a merchant contract's requests).
    func buildRequest(_ http: HTTPRequestStep) throws -> HTTPRequestData {
        try Self.buildRequest(http, renderer: renderer)
    }

    /// Renders an `http:` step into a request with `r`; a URL starting with `/` is resolved against `base`.
    static func buildRequest(_ http: HTTPRequestStep, renderer r: TemplateRenderer, base: String? = nil) throws -> HTTPRequestData {
        let method = try r.renderString(http.method).uppercased()
        var url = try r.renderString(http.url)
        if let base, url.hasPrefix("/") {
            url = (base.hasSuffix("/") ? String(base.dropLast()) : base) + url
        }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw TemplateRenderer.RenderError(location: http.url.location, message: "url '\(url)' is not an absolute http(s) URL")
        }
        if !http.query.isEmpty {
            var pairs: [String] = []
            for (name, value) in http.query {
                let rendered = try r.render(value)
                let values: [Value] = if case .array(let items) = rendered { items } else { [rendered] }
                for v in values { pairs.append(CaseExecutor.queryEncode(name) + "=" + CaseExecutor.queryEncode(v.interpolated)) }
            }
            url += (url.contains("?") ? "&" : "?") + pairs.joined(separator: "&")
        }
        var headers: [(name: String, value: String)] = []
        for (name, value) in http.headers { headers.append((name, try r.renderString(value))) }
        var body: [UInt8] = []
        func setContentType(_ type: String) {
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) { headers.append(("Content-Type", type)) }
        }
        switch http.body {
        case .json(let value)?:
            body = JSONText.encodeBytes(try r.render(value))
            setContentType("application/json")
        case .form(let fields)?:
            var pairs: [(name: String, value: String)] = []
            for (name, value) in fields { pairs.append((name, try r.render(value).interpolated)) }
            body = Array(FormText.encode(pairs).utf8)
            setContentType("application/x-www-form-urlencoded")
        case .text(let template)?:
            body = Array(try r.renderString(template).utf8)
        case nil:
            break
        }
        return HTTPRequestData(method: method, url: url, headers: headers, body: body)
    }

    /// Percent-encodes a query-string name or value: the form byte set, with a space as `%20`.
    static func queryEncode(_ s: String) -> String {
        FormText.percentEncode(s, spaceAsPlus: false)
    }

    /// An observation of a raw HTTP response.
    static func observation(from response: HTTPResponseData) -> Observation {
        let text = response.text
        return Observation(status: response.status, headers: response.headers, body: Observation.parseBody(text), rawBody: text)
    }
}
