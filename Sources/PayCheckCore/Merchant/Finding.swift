/// How much a merchant finding matters.
public enum FindingSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Worth knowing; the real provider accepts it.
    case info
    /// Works today but is unsafe or deprecated (a SHA-1 tranKey, an `http://` return URL).
    case warning
    /// The real provider would refuse it, or it loses money (a reused nonce, a secret key in a mobile app).
    case error

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// A rule the mock checks the merchant's requests against (declared next to each provider's adapter).
public struct FindingRule: Sendable, Hashable {
    /// The rule id, `<provider>.<name>`, e.g. `placetopay.nonce-reused`.
    public var id: String
    /// How much a breach matters.
    public var severity: FindingSeverity
    /// One line: what the rule checks.
    public var title: String
    /// What goes wrong in production, and how to fix it.
    public var explanation: String
    /// Where the rule comes from: a providers.md section or the provider's documentation.
    public var source: String

    /// Creates a rule.
    public init(_ id: String, _ severity: FindingSeverity, _ title: String, explanation: String, source: String) {
        self.id = id
        self.severity = severity
        self.title = title
        self.explanation = explanation
        self.source = source
    }
}

/// One breach of a ``FindingRule`` by a request the merchant's backend sent to the mock.
public struct Finding: Sendable, Hashable {
    /// The rule's id.
    public var rule: String
    /// The rule's severity.
    public var severity: FindingSeverity
    /// What was wrong with this request, e.g. "nonce 'Zm9v…' was already used at request 3".
    public var message: String
    /// The request it was found on, e.g. `POST /placetopay/api/session`.
    public var request: String
    /// The request's number in the mock's journal.
    public var sequence: Int
    /// The rule's source.
    public var source: String

    /// Creates a finding of `rule` on `request`.
    public init(rule: FindingRule, message: String, request: String, sequence: Int) {
        self.rule = rule.id
        self.severity = rule.severity
        self.message = message
        self.request = request
        self.sequence = sequence
        self.source = rule.source
    }

    /// Creates a finding from its parts (a report read back).
    public init(rule: String, severity: FindingSeverity, message: String, request: String, sequence: Int, source: String) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.request = request
        self.sequence = sequence
        self.source = source
    }

    /// The finding as JSON.
    public var json: Value {
        .object([
            "rule": .string(self.rule), "severity": .string(self.severity.rawValue), "message": .string(self.message),
            "request": .string(self.request), "sequence": .int(self.sequence), "source": .string(self.source),
        ])
    }

    /// Reads a finding written by ``json``; `nil` when a field is missing.
    public init?(json: Value) {
        guard case .object(let o) = json, let rule = o["rule"]?.stringValue,
            let severity = o["severity"]?.stringValue.flatMap(FindingSeverity.init(rawValue:)),
            let message = o["message"]?.stringValue
        else { return nil }
        self.init(
            rule: rule, severity: severity, message: message, request: o["request"]?.stringValue ?? "",
            sequence: o["sequence"]?.wholeNumber ?? 0, source: o["source"]?.stringValue ?? "")
    }
}
