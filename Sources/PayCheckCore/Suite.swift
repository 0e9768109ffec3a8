/// One suite file: a named list of cases for one provider (or for raw HTTP when `provider` is nil).
public struct Suite: Sendable {
    /// The file path as given on the command line.
    public var file: String
    /// The `suite:` name.
    public var name: String
    /// The `provider:` id, or `nil` for raw HTTP suites.
    public var provider: String?
    /// The `description:` text.
    public var description: String?
    /// The `tags:` every case inherits.
    public var tags: [String]
    /// The `vars:` bindings, evaluated in order before each case.
    public var vars: [Binding]
    /// The cases, in file order.
    public var cases: [Case]
    /// Where `suite:` is.
    public var location: SourceLocation
    /// A ``StableDigest`` of the suite's text and the text of every file it includes, set by the loader: two
    /// reports ran the same suite only if this matches.
    public var sourceDigest = ""

    /// Creates a suite.
    public init(
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
public struct Binding: Sendable {
    /// The variable name.
    public var name: String
    /// The value, rendered when the binding is evaluated.
    public var value: TemplateValue
    /// Where the binding is.
    public var location: SourceLocation

    /// Creates a binding.
    public init(name: String, value: TemplateValue, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// One test case: an end-to-end flow of steps.
public struct Case: Sendable {
    /// The `name:` text, unique within its suite.
    public var name: String
    /// The case's own tags (the suite's are added by the planner).
    public var tags: [String]
    /// What the case needs from the target, e.g. `mock` (skipped with a reason when missing).
    public var requires: [String]
    /// `skip:` reason, when the case is skipped unconditionally.
    public var skip: String?
    /// `xfail:` reason, when the case is expected to fail.
    public var xfail: String?
    /// Case-level `vars:`.
    public var vars: [Binding]
    /// The steps, in order, with `include:` already expanded.
    public var steps: [Step]
    /// Where the case starts.
    public var location: SourceLocation

    /// Creates a case.
    public init(
        name: String, tags: [String], requires: [String], skip: String?, xfail: String?, vars: [Binding],
        steps: [Step], location: SourceLocation
    ) {
        self.name = name
        self.tags = tags
        self.requires = requires
        self.skip = skip
        self.xfail = xfail
        self.vars = vars
        self.steps = steps
        self.location = location
    }
}
