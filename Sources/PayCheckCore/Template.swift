import Foundation
/// A string that may contain `{{ expression }}` holes, parsed once at load time.
package struct Template: Sendable {
    /// A piece of a template.
    package enum Part: Sendable {
        /// Literal text.
        case text(String)
        /// An expression to evaluate and interpolate.
        case expression(Expression, source: String)
    }

    /// The pieces in order.
    package var parts: [Part]
    /// The original text.
    package var source: String
    /// Where the string is written.
    package var location: SourceLocation

    /// Creates a template from parts.
    package init(parts: [Part], source: String, location: SourceLocation) {
        self.parts = parts
        self.source = source
        self.location = location
    }

    /// A template with no holes.
    package static func literal(_ text: String, at location: SourceLocation) -> Template {
        Template(parts: [.text(text)], source: text, location: location)
    }

    /// Whether the template is exactly one `{{ expression }}` (its value keeps its type: a number stays a number).
    package var singleExpression: Expression? {
        if parts.count == 1, case .expression(let e, _) = parts[0] { return e }
        return nil
    }

    /// Parses `text`, throwing a message (the caller attaches the location) on malformed holes.
    package static func parse(_ text: String, at location: SourceLocation) throws(ExpressionError) -> Template {
        guard text.contains("{{") else { return .literal(text, at: location) }
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<open.lowerBound]))) }
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.range(of: "}}") else {
                throw ExpressionError(message: "unterminated '{{' in '\(text)'", offset: text.distance(from: text.startIndex, to: open.lowerBound))
            }
            let inner = String(afterOpen[..<close.lowerBound])
            let expression = try Expression.parse(inner)
            parts.append(.expression(expression, source: inner.trimmingWhitespace()))
            rest = afterOpen[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        return Template(parts: parts, source: text, location: location)
    }
}

/// A value from a suite file in which strings may be templates.
package indirect enum TemplateValue: Sendable {
    /// A value with no templates inside.
    case literal(Value, SourceLocation)
    /// A templated string.
    case string(Template)
    /// A list.
    case array([TemplateValue], SourceLocation)
    /// A mapping.
    case object([(key: String, value: TemplateValue)], SourceLocation)

    /// Where the value is written.
    package var location: SourceLocation {
        switch self {
        case .literal(_, let l), .array(_, let l), .object(_, let l): l
        case .string(let t): t.location
        }
    }

    /// Whether the value holds no template anywhere.
    package var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }

    /// The members when this is an object.
    package var members: [(key: String, value: TemplateValue)]? {
        switch self {
        case .object(let m, _): m
        case .literal(.object(let o), let l): o.keys.sorted().map { ($0, TemplateValue.literal(o[$0] ?? .null, l)) }
        default: nil
        }
    }
}

extension String {
    /// Drops leading and trailing spaces, tabs and newlines.
    package func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
