import Foundation

/// One member value of a control request body, with JSON's types kept apart (`true` is not `1`).
enum JSONScalar: Decodable, Equatable, Sendable {
    /// A JSON string.
    case string(String)
    /// A JSON number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An object or array (control bodies never need them).
    case structured

    /// Decodes whichever JSON type is present.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .structured
        }
    }

    /// The string value, if this is a string.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as an integer, if this is a number without a fractional part.
    var int: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// The value as JSON-like text for error messages.
    var description: String {
        switch self {
        case .string(let value): return value
        case .number(let value):
            return value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .structured: return "<object or array>"
        }
    }
}
