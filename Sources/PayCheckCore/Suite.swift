/// One suite file: a named list of cases for one provider (or for raw HTTP when `provider` is nil).
package struct Suite: Sendable {
    /// The file path as given on the command line.
    package var file: String
    /// The `suite:` name.
    package var name: String
    /// The `provider:` id, or `nil` for raw HTTP suites.
    package var provider: String?
    /// The `description:` text.
    package var description: String?
    /// The `tags:` every case inherits.
    package var tags: [String]
    /// The `vars:` bindings, evaluated in order before each case.
    package var vars: [Binding]
    /// The cases, in file order.
    package var cases: [Case]
    /// Where `suite:` is.
    package var location: SourceLocation
    /// A ``StableDigest`` of the suite's text and the text of every file it includes, set by the loader: two
    /// reports ran the same suite only if this matches.
    package var sourceDigest = ""

    /// Creates a suite.
    package init(
        file: String, name: String, provider: String?, description: String?, tags: [String], vars: [Binding],
        cases: [Case], location: SourceLocation
    ) {
        self.file = file
        self.name = name
        self.provider = provider
        self.description = description
        self.tags = tags
        self.vars = vars
        self.cases = cases
        self.location = location
    }
}

/// A variable binding `name: value` where the value may hold templates.
package struct Binding: Sendable {
    /// The variable name.
    package var name: String
    /// The value, rendered when the binding is evaluated.
    package var value: TemplateValue
    /// Where the binding is.
    package var location: SourceLocation

    /// Creates a binding.
    package init(name: String, value: TemplateValue, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// One test case: an end-to-end flow of steps.
package struct Case: Sendable {
    /// The `name:` text, unique within its suite.
    package var name: String
    /// The case's own tags (the suite's are added by the planner).
    package var tags: [String]
    /// What the case needs from the target, e.g. `mock` (skipped with a reason when missing).
    package var requires: [String]
    /// Why the case needs the mock, as written (`requires: { mock: … }`); see ``whyMock``.
    package var mockReason: String?
    /// `skip:` reason, when the case is skipped unconditionally.
    package var skip: String?
    /// `xfail:` reason, when the case is expected to fail.
    package var xfail: String?
    /// Case-level `vars:`.
    package var vars: [Binding]
    /// `catches:` — the mistake a failure of this case reveals ("backends that take an authorized payment as
    /// paid"); reports show it beside the failure.
    package var catches: String?
    /// The steps, in order, with `include:` already expanded.
    package var steps: [Step]
    /// Where the case starts.
    package var location: SourceLocation

    /// Creates a case.
    package init(
        name: String, tags: [String], requires: [String], skip: String?, xfail: String?, vars: [Binding],
        steps: [Step], location: SourceLocation, catches: String? = nil, mockReason: String? = nil
    ) {
        self.name = name
        self.mockReason = mockReason
        self.catches = catches
        self.tags = tags
        self.requires = requires
        self.skip = skip
        self.xfail = xfail
        self.vars = vars
        self.steps = steps
        self.location = location
    }
}

extension Case {
    /// Why a case that requires the mock cannot run on a live target: the reason written in `requires: { mock: … }`,
    /// else the first step that only the mock can serve (a `payer:` or `mock:` action, a `merchant:` step, a request
    /// to `{{ mock.… }}`); `nil` when the case does not require the mock or names no reason.
    package var whyMock: String? {
        guard requires.contains("mock") else { return nil }
        if let mockReason { return mockReason }
        for step in steps {
            switch step.kind {
            case .provider(let action) where action.kind == .payer:
                return "the mock plays the payer (payer: \(action.name))"
            case .provider(let action) where action.kind == .mock:
                return "it drives the mock's control API (mock: \(action.name))"
            case .merchant(let merchant):
                return "the mock plays the provider for the merchant's backend (merchant: \(merchant.action.rawValue))"
            case .http(let http) where http.url.source.contains("mock."):
                return "it calls the mock's own API ({{ mock.url }})"
            default: continue
            }
        }
        return nil
    }
}
