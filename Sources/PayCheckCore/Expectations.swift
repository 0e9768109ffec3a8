/// The `expect:` block of a step.
package struct Expectations: Sendable {
    /// `status:` check.
    package var status: Check?
    /// `headers:` checks by header name (case-insensitive).
    package var headers: [(name: String, check: Check)]
    /// `body:` checks by path (`$` is the whole body).
    package var body: [(path: ValuePath, check: Check)]
    /// `outcome:` check against the canonical outcome of a provider step.
    package var outcome: Check?
    /// `error:` checks on the provider error catalog entry: class, code, message.
    package var error: [(field: String, check: Check)]
    /// Where `expect:` is.
    package var location: SourceLocation

    /// Creates an expectation block.
    package init(
        status: Check? = nil, headers: [(name: String, check: Check)] = [], body: [(path: ValuePath, check: Check)] = [],
        outcome: Check? = nil, error: [(field: String, check: Check)] = [], location: SourceLocation
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.outcome = outcome
        self.error = error
        self.location = location
    }
}

/// A list of matchers applied to one actual value; a plain value is an `eq` matcher.
package struct Check: Sendable {
    /// The matchers, all of which must hold.
    package var matchers: [LocatedMatcher]
    /// Where the checked value is written.
    package var location: SourceLocation

    /// Creates a check.
    package init(matchers: [LocatedMatcher], location: SourceLocation) {
        self.matchers = matchers
        self.location = location
    }
}

/// A matcher with the location of its expected value.
package struct LocatedMatcher: Sendable {
    /// The matcher.
    package var matcher: Matcher
    /// Where it is written.
    package var location: SourceLocation

    /// Creates a located matcher.
    package init(_ matcher: Matcher, at location: SourceLocation) {
        self.matcher = matcher
        self.location = location
    }
}

/// A predicate over an actual value.
package indirect enum Matcher: Sendable {
    /// Structurally equal (numbers compare by value).
    case eq(TemplateValue)
    /// Not equal.
    case ne(TemplateValue)
    /// Present (`true`) or absent (`false`).
    case exists(Bool)
    /// JSON type: string, number, integer, boolean, object, array, null.
    case type(String)
    /// The string form matches a regular expression (searched, not anchored).
    case matches(String)
    /// A string contains a substring, an array an element, an object a key.
    case contains(TemplateValue)
    /// Equal to one of a list.
    case oneOf(TemplateValue)
    /// Numeric comparisons.
    case lt(TemplateValue), le(TemplateValue), gt(TemplateValue), ge(TemplateValue)
    /// The length of a string, array or object satisfies a check.
    case length(Check)

    /// The matcher keyword as written in suites.
    package var keyword: String {
        switch self {
        case .eq: "eq"
        case .ne: "ne"
        case .exists: "exists"
        case .type: "type"
        case .matches: "matches"
        case .contains: "contains"
        case .oneOf: "in"
        case .lt: "lt"
        case .le: "le"
        case .gt: "gt"
        case .ge: "ge"
        case .length: "length"
        }
    }

    /// Every matcher keyword.
    package static let keywords = ["eq", "ne", "exists", "type", "matches", "contains", "in", "lt", "le", "gt", "ge", "length"]

    /// Words other tools' assertion languages use for one of the matchers (Hurl, Karate, Chai, JSON Schema): a
    /// mapping of nothing but these, or of near misses, is a misspelt matcher, not an object to compare.
    package static let aliases = [
        "equals": "eq", "equal": "eq", "equalto": "eq", "is": "eq", "not": "ne", "notequals": "ne", "neq": "ne",
        "regex": "matches", "match": "matches", "pattern": "matches", "includes": "contains", "contain": "contains",
        "oneof": "in", "anyof": "in", "enum": "in", "lessthan": "lt", "greaterthan": "gt", "gte": "ge", "lte": "le",
        "size": "length", "len": "length", "exist": "exists", "present": "exists", "istype": "type",
    ]

    /// The matcher `word` most likely means, when it is not one: an alias or a near miss.
    static func nearMiss(_ word: String) -> String? {
        guard !keywords.contains(word) else { return nil }
        return aliases[word.lowercased()] ?? Suggest.nearest(word, in: keywords)
    }
    /// The type names accepted by `type:`.
    static let typeNames = ["string", "number", "integer", "boolean", "object", "array", "null"]
}
