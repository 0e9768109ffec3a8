/// One step of a case: an action, then optional expectations and captures.
package struct Step: Sendable {
    /// What the step does.
    package var kind: StepKind
    /// An optional `name:` shown in reports; otherwise a summary of the action is used.
    package var name: String?
    /// The `expect:` block.
    package var expect: Expectations?
    /// The `capture:` bindings, applied after the expectations pass.
    package var captures: [Capture]
    /// The `retry:` policy.
    package var retry: RetryPolicy?
    /// The `timeout:` for one attempt, in seconds.
    package var timeout: Double?
    /// Where the step starts.
    package var location: SourceLocation

    /// Creates a step.
    package init(
        kind: StepKind, name: String? = nil, expect: Expectations? = nil, captures: [Capture] = [],
        retry: RetryPolicy? = nil, timeout: Double? = nil, location: SourceLocation
    ) {
        self.kind = kind
        self.name = name
        self.expect = expect
        self.captures = captures
        self.retry = retry
        self.timeout = timeout
        self.location = location
    }

    /// A short label for progress lines and transcripts, e.g. `http POST {{ base }}/x` or `call createSession`.
    package var summary: String {
        if let name { return name }
        switch kind {
        case .http(let http): return "http \(http.method.source) \(http.url.source)"
        case .provider(let action): return "\(action.kind.rawValue) \(action.name)"
        case .merchant(let merchant): return "merchant \(merchant.action.rawValue)"
        case .set(let bindings): return "set " + bindings.map(\.name).joined(separator: ", ")
        case .wait(let seconds): return "wait \(Value.format(seconds))s"
        }
    }
}

/// The action of a step. Exactly one per step.
package enum StepKind: Sendable {
    /// A raw HTTP request.
    case http(HTTPRequestStep)
    /// A provider-dispatched action: `call`, `payer`, `mock`, `redirect`, `deeplink`.
    case provider(ProviderAction)
    /// A request to the merchant's own backend through its contract (`merchant:`), run by the merchant layer.
    case merchant(MerchantStep)
    /// `set:` computes variables.
    case set([Binding])
    /// `wait:` pauses for a number of seconds (on the runner's injected clock).
    case wait(Double)
}

/// A raw HTTP request (`http:` step).
package struct HTTPRequestStep: Sendable {
    /// The method, e.g. `GET`.
    package var method: Template
    /// The absolute URL.
    package var url: Template
    /// Request headers, in order.
    package var headers: [(name: String, value: Template)]
    /// Query parameters appended to the URL.
    package var query: [(name: String, value: TemplateValue)]
    /// The body, if any.
    package var body: Body?
    /// Where `http:` is.
    package var location: SourceLocation

    /// A request body.
    package enum Body: Sendable {
        /// `json:` — encoded as JSON with `Content-Type: application/json`.
        case json(TemplateValue)
        /// `form:` — `application/x-www-form-urlencoded`.
        case form([(name: String, value: TemplateValue)])
        /// `body:` — raw text sent as given.
        case text(Template)
    }

    /// Creates an HTTP step.
    package init(
        method: Template, url: Template, headers: [(name: String, value: Template)],
        query: [(name: String, value: TemplateValue)], body: Body?, location: SourceLocation
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.query = query
        self.body = body
        self.location = location
    }
}

/// A step dispatched to the suite's provider (or to the mock host for generic `mock:` actions).
package struct ProviderAction: Sendable {
    /// Which step key introduced the action.
    package enum Kind: String, Sendable, CaseIterable {
        /// `call:` a provider operation: the adapter builds, signs and sends the request.
        case call
        /// `payer:` a payer action on the mock (pay, cancel, abandon…).
        case payer
        /// `mock:` a mock-control action (clock, reset, journal, fault, notify…).
        case mock
        /// `redirect:` build the return URL the provider would open and map it to an outcome.
        case redirect
        /// `deeplink:` build the app deep link the provider would open and map it to an outcome.
        case deeplink
    }

    /// The step key.
    package var kind: Kind
    /// The operation or action name.
    package var name: String
    /// The `with:` parameters.
    package var parameters: TemplateValue
    /// The `auth:` overrides for negative tests (only for `call`).
    package var auth: TemplateValue?
    /// Where the action name is.
    package var location: SourceLocation
    /// Whether the action changes state every case shares (the mock clock, a reset), so its case runs alone.
    package var runsAlone: Bool

    /// Creates an action.
    package init(kind: Kind, name: String, parameters: TemplateValue, auth: TemplateValue?, location: SourceLocation, runsAlone: Bool = false) {
        self.kind = kind
        self.name = name
        self.parameters = parameters
        self.auth = auth
        self.location = location
        self.runsAlone = runsAlone
    }
}

/// `capture: { name: source }` — stores a value from the response in a variable.
package struct Capture: Sendable {
    /// Where the value comes from.
    package enum Source: Sendable {
        /// `body.path` (or `body` for the whole body).
        case body(ValuePath)
        /// `header.Name` (case-insensitive).
        case header(String)
        /// `status`.
        case status
        /// `outcome` (the canonical outcome of a provider step).
        case outcome
        /// `{ regex: 'id=(\d+)' }` over the raw body; group 1 if present, else the whole match.
        case regex(String)
    }

    /// The variable name.
    package var name: String
    /// The source.
    package var source: Source
    /// Whether the captured value is a secret to redact (`{ from: body.token, secret: true }`).
    package var secret: Bool
    /// Where the capture is.
    package var location: SourceLocation

    /// Creates a capture.
    package init(name: String, source: Source, secret: Bool = false, location: SourceLocation) {
        self.name = name
        self.source = source
        self.secret = secret
        self.location = location
    }
}

/// `retry: { until, every, for }` — repeats a step until its condition holds or time runs out.
package struct RetryPolicy: Sendable {
    /// The condition; when `nil`, the step's own `expect:` is the condition.
    package var until: Expectations?
    /// Seconds between attempts.
    package var every: Double
    /// Total seconds before giving up.
    package var within: Double
    /// Where `retry:` is.
    package var location: SourceLocation

    /// Creates a policy.
    package init(until: Expectations?, every: Double, within: Double, location: SourceLocation) {
        self.until = until
        self.every = every
        self.within = within
        self.location = location
    }
}

/// A `merchant:` step: a request to the merchant's own backend through its contract (``MerchantAction``). It always
/// runs alone: the requests the backend sends meanwhile are the case's.
package struct MerchantStep: Sendable {
    /// What the shopper (or the scenario) does.
    package var action: MerchantAction
    /// The `with:` parameters.
    package var parameters: TemplateValue
    /// Where the action name is.
    package var location: SourceLocation

    /// Creates a step.
    package init(action: MerchantAction, parameters: TemplateValue, location: SourceLocation) {
        self.action = action
        self.parameters = parameters
        self.location = location
    }
}

extension Step {
    /// The step's `merchant:` action, if it is one.
    package var merchant: MerchantStep? {
        if case .merchant(let step) = self.kind { step } else { nil }
    }

    /// Whether the step changes state every case shares (the mock clock, a reset, the merchant's backend), so its
    /// case runs alone.
    package var runsAlone: Bool {
        switch self.kind {
        case .provider(let action): action.runsAlone
        case .merchant: true
        case .http, .set, .wait: false
        }
    }
}
