/// How much a merchant finding matters.
package enum FindingSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Worth knowing; the real provider accepts it.
    case info
    /// Works today but is unsafe or deprecated (a SHA-1 tranKey, an `http://` return URL).
    case warning
    /// The real provider would refuse it, or it loses money (a reused nonce, a secret key in a mobile app).
    case error

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// A rule the mock checks the merchant's requests against (declared next to each provider's adapter).
package struct FindingRule: Sendable, Hashable {
    /// The rule id, `<provider>.<name>`, e.g. `placetopay.nonce-reused`.
    package var id: String
    /// How much a breach matters.
    package var severity: FindingSeverity
    /// One line: what the rule checks.
    package var title: String
    /// What goes wrong in production, and how to fix it.
    package var explanation: String
    /// Where the rule comes from: the provider's page in `docs/providers/` or the provider's documentation
    /// (``Citation``).
    package var source: String

    /// Creates a rule.
    package init(_ id: String, _ severity: FindingSeverity, _ title: String, explanation: String, source: String) {
        self.id = id
        self.severity = severity
        self.title = title
        self.explanation = explanation
        self.source = Citation.forReaders(source, provider: id.split(separator: ".").first.map(String.init))
    }
}

/// One breach of a ``FindingRule`` by a request the merchant's backend sent to the mock.
package struct Finding: Sendable, Hashable {
    /// The rule's id.
    package var rule: String
    /// The rule's severity.
    package var severity: FindingSeverity
    /// What was wrong with this request, e.g. "nonce 'Zm9v…' was already used at request 3".
    package var message: String
    /// The request it was found on, e.g. `POST /placetopay/api/session`.
    package var request: String
    /// The request's number in the mock's journal.
    package var sequence: Int
    /// The rule's source.
    package var source: String

    /// Creates a finding of `rule` on `request`.
    package init(rule: FindingRule, message: String, request: String, sequence: Int) {
        self.rule = rule.id
        self.severity = rule.severity
        self.message = message
        self.request = request
        self.sequence = sequence
        self.source = rule.source
    }

    /// Creates a finding from its parts (a report read back).
    package init(rule: String, severity: FindingSeverity, message: String, request: String, sequence: Int, source: String) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.request = request
        self.sequence = sequence
        self.source = source
    }

    /// The finding as JSON.
    package var json: Value {
        .object([
            "rule": .string(self.rule), "severity": .string(self.severity.rawValue), "message": .string(self.message),
            "request": .string(self.request), "sequence": .int(self.sequence), "source": .string(self.source),
        ])
    }

    /// Reads a finding written by ``json``; `nil` when a field is missing.
    package init?(json: Value) {
        guard case .object(let o) = json, let rule = o["rule"]?.stringValue,
            let severity = o["severity"]?.stringValue.flatMap(FindingSeverity.init(rawValue:)),
            let message = o["message"]?.stringValue
        else { return nil }
        self.init(
            rule: rule, severity: severity, message: message, request: o["request"]?.stringValue ?? "",
            sequence: o["sequence"]?.wholeNumber ?? 0, source: o["source"]?.stringValue ?? "")
    }
}
