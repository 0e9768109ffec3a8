package import PayCheckCore

/// One `call:` operation of a provider, declared as data: the shared ``ProviderExecutor`` builds, signs, sends
/// and reads it, and lint checks a step's `with:` and `auth:` keys against the same declaration.
package struct ProviderOperation: Sendable {
    /// Where a `with:` parameter goes in the request.
    package enum Placement: Sendable, Hashable {
        /// Into a `{name}` segment of the path template, percent-encoded.
        case path
        /// Into the query string.
        case query
        /// Into this header.
        case header(String)
        /// Into the body, under its own name.
        case body
    }

    /// How the body is written.
    package enum BodyCodec: Sendable, Hashable {
        /// No body.
        case none
        /// `application/json`.
        case json
        /// `application/x-www-form-urlencoded`, flat members.
        case form
        /// XML under this root element.
        case xml(root: String)
        /// The provider's own codec (``Provider/encodeBody(_:for:credentials:)``), e.g. an encrypted envelope.
        case provider(contentType: String)
    }

    /// One declared parameter.
    package struct Parameter: Sendable {
        /// The `with:` key.
        package var name: String
        /// Where it goes.
        package var placement: Placement
        /// Whether the step must give it (a missing one is an invalid step).
        package var required: Bool
        /// The value sent when the step gives none; a step's explicit `null` sends nothing.
        package var defaultValue: Value?
        /// The kind of value it takes where the adapter (as the provider's client) refuses any other before sending:
        /// lint refuses another kind always, also in a step that expects the provider's refusal.
        package var kind: ValueKind?
        /// Its shape (members at every depth, kinds, choices), from the provider's docs or OpenAPI file: what the
        /// provider refuses. Lint checks a step's literal value against it (a step that expects the refusal may break
        /// all but the member names), the run the rendered value's member names, and `paycheck explain` prints it.
        package var shape: RequestShape?

        /// Creates a parameter.
        package init(_ name: String, _ placement: Placement = .body, required: Bool = false, default defaultValue: Value? = nil) {
            self.name = name
            self.placement = placement
            self.required = required
            self.defaultValue = defaultValue
        }

        /// This parameter, taking values of `shape`.
        package func shaped(_ shape: RequestShape) -> Parameter {
            var parameter = self
            parameter.shape = shape
            return parameter
        }

        /// This parameter, taking only values of `kind`.
        package func expecting(_ kind: ValueKind) -> Parameter {
            var parameter = self
            parameter.kind = kind
            return parameter
        }
    }

    /// The operation name used in `call:`.
    package var name: String
    /// The HTTP method.
    package var method: String
    /// The path below the provider's base URL, with `{name}` placeholders for path parameters.
    package var path: String
    /// The declared parameters.
    package var parameters: [Parameter]
    /// How the body is written.
    package var bodyCodec: BodyCodec
    /// The header that carries an idempotency key, taken from the `with:` key `idempotencyKey`.
    package var idempotencyHeader: String?
    /// The `auth:` override keys the provider's signer understands for this operation.
    package var authKeys: [String]
    /// Headers every request of the operation carries (e.g. `Accept`).
    package var headers: [(name: String, value: String)]
    /// Where a 2xx answer carries the id of the payment (or session) the operation creates, e.g. `id`; `nil` for
    /// an operation that creates none. A run links the payment a merchant's backend created to the case by it.
    package var createdPayment: String?
    /// Where the request that creates a payment carries its amount and currency (dotted paths into the JSON or form
    /// body), so a run can compare them with the order's (`merchant: payment`).
    package var createdAmount: (amount: String, currency: String)?

    /// Creates an operation.
    package init(
        _ name: String, method: String, path: String, parameters: [Parameter] = [], bodyCodec: BodyCodec = .json,
        idempotencyHeader: String? = nil, authKeys: [String] = [], headers: [(name: String, value: String)] = []
    ) {
        self.name = name
        self.method = method
        self.path = path
        self.parameters = parameters
        self.bodyCodec = bodyCodec
        self.idempotencyHeader = idempotencyHeader
        self.authKeys = authKeys
        self.headers = headers
    }

    /// This operation, declared as creating a payment whose id a 2xx answer carries at `path`.
    /// `amount` and `currency` are where the request carries the payment's amount and currency, when it says them
    /// in the clear.
    func creatingPayment(at path: String, amount: String? = nil, currency: String? = nil) -> ProviderOperation {
        var operation = self
        operation.createdPayment = path
        if let amount, let currency { operation.createdAmount = (amount, currency) }
        return operation
    }

    /// This operation, with the shape `shape(name)` gives each body parameter that has one.
    func shaping(_ shape: (String) -> RequestShape?) -> ProviderOperation {
        var operation = self
        for index in operation.parameters.indices where operation.parameters[index].placement == .body {
            if let found = shape(operation.parameters[index].name) { operation.parameters[index].shape = found }
        }
        return operation
    }

    /// The `with:` key of the idempotency key.
    package static let idempotencyKeyParameter = "idempotencyKey"

    /// Every `with:` key the operation accepts.
    package var acceptedKeys: [String] {
        parameters.map(\.name) + (idempotencyHeader == nil ? [] : [Self.idempotencyKeyParameter])
    }

    /// The lint spec of the operation.
    package var spec: ActionSpec {
        var spec = ActionSpec(name, parameters: acceptedKeys, authKeys: authKeys)
        spec.required = parameters.filter { $0.required && $0.defaultValue == nil }.map(\.name)
        for parameter in parameters { if let kind = parameter.kind { spec.kinds[parameter.name] = kind } }
        for parameter in parameters { if let shape = parameter.shape { spec.shapes[parameter.name] = shape } }
        return spec
    }

    /// The operation's route, for recognising its requests (faults aimed at it, a merchant's create in the journal).
    package var route: Route { Route(name: name, method: method, path: path) }

    /// One operation's route: a method and a path pattern whose `{name}` segments match any segment.
    package struct Route: Sendable {
        /// The operation's name.
        package let name: String
        /// The HTTP method.
        package let method: String
        /// The path's segments; `nil` for a `{name}` segment.
        let segments: [Substring?]

        /// Creates the route of `method path`.
        package init(name: String, method: String, path: String) {
            self.name = name
            self.method = method
            self.segments = path.split(separator: "/").map { $0.hasPrefix("{") && $0.hasSuffix("}") ? nil : $0 }
        }

        /// Whether `method path` (the path below the provider's base path) is a request of this operation.
        package func matches(method: String, path: String) -> Bool {
            guard method == self.method else { return false }
            let parts = path.split(separator: "/")
            guard parts.count == self.segments.count else { return false }
            return zip(parts, self.segments).allSatisfy { part, segment in segment.map { $0 == part } ?? true }
        }
    }
}

/// A `payer:` or provider `mock:` action: the executor posts its `with:` mapping as JSON to
/// `/__paycheck/<provider>/<kind>/<name>` (``ControlAPI/action(provider:kind:name:)``), and the mock serves a
/// handler under the same declaration.
package struct ControlAction: Sendable, Hashable {
    /// `payer` or `mock`.
    package var kind: ProviderAction.Kind
    /// The action name.
    package var name: String
    /// The `with:` keys it accepts.
    package var parameters: [String]
    /// The keys it requires.
    package var required: [String]
    /// Whether a case that performs it must run alone.
    package var runsAlone: Bool
    /// Whether the action exists to send the merchant a notification (a forged one, one sent again): in a merchant
    /// case, a step of it after which no notification reached the backend did not happen, and is an error rather
    /// than a pass (docs/merchant.md, "No scenario passes vacuously").
    package var delivers: Bool

    /// Creates an action.
    package init(
        _ kind: ProviderAction.Kind, _ name: String, parameters: [String], required: [String] = [], runsAlone: Bool = false,
        delivers: Bool = false
    ) {
        self.kind = kind
        self.name = name
        self.parameters = parameters
        self.required = required
        self.runsAlone = runsAlone
        self.delivers = delivers
    }

    /// The lint spec of the action.
    package var spec: ActionSpec {
        var spec = ActionSpec(name, parameters: parameters, runsAlone: runsAlone)
        spec.required = required
        return spec
    }
}
