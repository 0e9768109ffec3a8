import Foundation

/// A JSON-like value: what suite files hold, what response bodies parse to, what variables store.
package enum Value: Sendable, Hashable {
    /// `null`, or an absent YAML value.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case double(Double)
    /// Text.
    case string(String)
    /// An ordered list.
    case array([Value])
    /// A mapping from keys to values.
    case object([String: Value])

    /// The JSON type name used by the `type` matcher: string, number, integer, boolean, object, array, null.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double(let d): d.rounded() == d && abs(d) < 9.0e15 ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value as a number, when it is one.
    package var number: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// The text form used when a value is interpolated into a string or a URL.
    package var interpolated: String {
        switch self {
        case .null: ""
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): Value.format(d)
        case .string(let s): s
        case .array, .object: JSONText.encode(self)
        }
    }

    /// Structural equality where `1` and `1.0` are equal.
    package func matches(_ other: Value) -> Bool {
        switch (self, other) {
        case let (a, b) where a.number != nil && b.number != nil: return a.number == b.number
        case let (.array(a), .array(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.matches($1) }
        case let (.object(a), .object(b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.matches($0) } ?? false }
        default: return self == other
        }
    }

    /// A number: `.int` when `number` is whole and well inside `Int`'s range (|n| < 10^15), else `.double`, so a
    /// computed `165000.0` is written back as `165000`.
    package init(number: Double) {
        self = Value.exactInt(number).map(Value.int) ?? .double(number)
    }

    /// Formats a double without a trailing `.0` when it is whole.
    package static func format(_ d: Double) -> String {
        if let whole = exactInt(d) { return String(whole) }
        return String(d)
    }

    /// A short one-line rendering for messages: strings quoted, containers as compact JSON, cut at 200 characters.
    package var brief: String {
        let text: String
        switch self {
        case .string(let s): text = "\"\(s)\""
        default: text = JSONText.encode(self)
        }
        return text.count > 200 ? String(text.prefix(197)) + "…" : text
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    /// A string value.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    package init(integerLiteral value: Int) { self = .int(value) }
    /// A boolean value.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array value.
    package init(arrayLiteral elements: Value...) { self = .array(elements) }
    /// An object value.
    package init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// The null value.
    package init(nilLiteral: ()) { self = .null }
    /// A double value.
    package init(floatLiteral value: Double) { self = .double(value) }
}

extension Value: Decodable {
    /// Decodes any JSON document.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int.self) {
            self = .int(i)
        } else if let d = try? container.decode(Double.self) {
            self = .double(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([Value].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: Value].self))
        }
    }
}
