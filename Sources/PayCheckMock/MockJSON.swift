import Foundation

/// A parsed JSON value of a provider request body, with JSON's types kept apart (`true` is not `1`).
///
/// It keeps nested objects and arrays, so provider mocks can validate and echo whole request bodies;
/// control requests read flat members with the strict accessors ``string``, ``int`` and ``description``. Numbers are kept as `Double` and echoed as numbers.
enum MockJSON: Sendable, Equatable, Decodable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([MockJSON])
    /// An object; member order is not kept (providers.md §1.1: clients must not depend on key order).
    case object([String: MockJSON])

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
        } else if let value = try? container.decode([MockJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: MockJSON].self))
        }
    }

    /// Parses `bytes` as one JSON value; `nil` when they are not valid JSON.
    ///
    /// Plain JSON takes the fast scanner (``parseStrict(_:)``); everything else is decided by `JSONDecoder`.
    static func parse(_ bytes: [UInt8]) -> MockJSON? {
        if let value = parseStrict(bytes) { return value }
        return try? JSONDecoder().decode(MockJSON.self, from: Data(bytes))
    }

    /// The member `key` of an object; `nil` for a missing member or a value that is not an object.
    subscript(key: String) -> MockJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The string, if this is a string.
    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    var objectValue: [String: MockJSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The items, if this is an array.
    var arrayValue: [MockJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// A number, or a string holding a finite decimal number (lenient, as form-style clients send).
    var numberValue: Double? {
        switch self {
        case .number(let value):
            return value
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }),
                let value = Double(trimmed), value.isFinite
            else { return nil }
            return value
        default:
            return nil
        }
    }

    /// A boolean, also read from `"true"`/`"false"`, `"1"`/`"0"` and `1`/`0`.
    ///
    /// The official Python client `checkout-p2p` sends every boolean as the string `"true"` or `"false"`.
    var boolValue: Bool? {
        switch self {
        case .bool(let value):
            return value
        case .string(let text):
            switch text.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        case .number(let value):
            if value == 1 { return true }
            if value == 0 { return false }
            return nil
        default:
            return nil
        }
    }

    /// The value as an integer: a whole number, or a string of decimal digits.
    var intValue: Int? {
        switch self {
        case .number(let value):
            guard value.rounded() == value, abs(value) < 1e15 else { return nil }
            return Int(value)
        case .string(let text):
            guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
            return Int(text)
        default:
            return nil
        }
    }

    /// The JSON type name, for error messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value for rendering; object members are sorted by key so output is deterministic.
    var text: JSONText {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let value): return .raw(Self.numberText(value))
        case .string(let value): return .string(value)
        case .array(let items): return .array(items.map(\.text))
        case .object(let members):
            return .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.text) })
        }
    }

    /// JSON text for a number: integral values without a fraction (`10000`, not `10000.0`).
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value.rounded() == value, abs(value) < 1e15 {
            return String(Int(value))
        }
        return String(value)
    }
}

extension MockJSON {
    /// The string value, if this is a string (strict: no conversion).
    var string: String? { stringValue }

    /// The value as an integer, if this is a number without a fractional part (strict: digit strings are not numbers).
    var int: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// The value as JSON-like text for error messages.
    var description: String {
        switch self {
        case .string(let value): return value
        case .number(let value): return Self.numberText(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array, .object: return "<object or array>"
        }
    }
}
