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
    var singleExpression: Expression? {
        if parts.count == 1, case .expression(let e, _) = parts[0] { return e }
        return nil
    }

    /// Parses `text`, throwing a message (the caller attaches the location) on malformed holes.
    package static func parse(_ text: String, at location: SourceLocation) throws(ExpressionError) -> Template {
        guard text.containsASCII("{{") else { return .literal(text, at: location) }
        // One pass over the UTF-8 view (Foundation's `range(of:)` on a substring copies the rest each time: quadratic).
        var parts: [Part] = []
        let utf8 = text.utf8
        var rest = utf8.startIndex
        while let open = Self.find(0x7B, in: utf8, from: rest) {
            if open > rest { parts.append(.text(String(decoding: utf8[rest..<open], as: UTF8.self))) }
            let afterOpen = utf8.index(open, offsetBy: 2)
            guard let close = Self.find(0x7D, in: utf8, from: afterOpen) else {
                throw ExpressionError(message: "unterminated '{{' in '\(text)'", offset: text.distance(from: text.startIndex, to: open))
            }
            let inner = String(decoding: utf8[afterOpen..<close], as: UTF8.self)
            let expression = try Expression.parse(inner)
            parts.append(.expression(expression, source: inner.trimmingWhitespace()))
            rest = utf8.index(close, offsetBy: 2)
        }
        if rest < utf8.endIndex { parts.append(.text(String(decoding: utf8[rest...], as: UTF8.self))) }
        return Template(parts: parts, source: text, location: location)
    }

    /// The index of the first of two `byte`s in a row (`{{` or `}}`) at or after `start`.
    private static func find(_ byte: UInt8, in utf8: String.UTF8View, from start: String.Index) -> String.Index? {
        var index = start
        while index < utf8.endIndex {
            let next = utf8.index(after: index)
            if utf8[index] == byte, next < utf8.endIndex, utf8[next] == byte { return index }
            index = next
        }
        return nil
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

    /// Whether the value is written as a string: a quoted or plain text, or a template with text around its
    /// expressions (`"{{ a }}"` alone keeps the type of `a`).
    package var isDeclaredString: Bool {
        switch self {
        case .literal(.string, _): true
        case .string(let template): template.parts.contains { if case .text = $0 { return true } else { return false } }
        default: false
        }
    }

    /// Where the value is written.
    package var location: SourceLocation {
        switch self {
        case .literal(_, let l), .array(_, let l), .object(_, let l): l
        case .string(let t): t.location
        }
    }

    /// Whether the value holds no template anywhere.
    var isLiteral: Bool {
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
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
