import Foundation

/// Typed reads of a `Value`, for code that validates request bodies (the mocks) and builds messages.
///
/// The strict accessors (``stringValue``, ``objectValue``, ``arrayValue``, ``wholeNumber``) never convert
/// between JSON types. The lenient ones (``numberValue``, ``intValue``, ``boolValue``) also read numbers and
/// booleans written as strings, because form-style clients send them that way: the official Python client
/// of PlacetoPay (`checkout-p2p`) sends every boolean as the string `"true"` or `"false"`.
extension Value {
    /// The member `key` of an object; `nil` for a missing member or a value that is not an object.
    package subscript(key: String) -> Value? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The string, if this is a string (strict).
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    package var objectValue: [String: Value]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The items, if this is an array.
    package var arrayValue: [Value]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The value as an integer, if it is a number without a fractional part (strict: digit strings are not
    /// numbers).
    package var wholeNumber: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Self.exactInt(value)
        default: return nil
        }
    }

    /// A number, or a string holding a finite decimal number (lenient).
    package var numberValue: Double? {
        switch self {
        case .int, .double:
            return self.number
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
                let value = Double(trimmed), value.isFinite
            else { return nil }
            return value
        default:
            return nil
        }
    }

    /// A whole number, or a string of decimal digits (lenient).
    package var intValue: Int? {
        switch self {
        case .int, .double:
            return self.wholeNumber
        case .string(let text):
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return nil
            }
            return Int(text)
        default:
            return nil
        }
    }

    /// A boolean, also read from `"true"`/`"false"`, `"1"`/`"0"` and `1`/`0` (lenient).
    package var boolValue: Bool? {
        switch self {
        case .bool(let value):
            return value
        case .string(let text):
            switch text.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        case .int, .double:
            switch self.number {
            case 1: return true
            case 0: return false
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The JSON type with an article, for error messages: `a string`, `a number`, `an object`…
    package var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as plain text for error messages: strings unquoted, scalars as JSON, containers elided.
    package var displayText: String {
        switch self {
        case .null: "null"
        case .string(let value): value
        case .bool, .int, .double: self.interpolated
        case .array, .object: "<object or array>"
        }
    }

    /// `value` as an `Int` when it is whole and well inside `Int`'s range (|value| < 10^15), else `nil`.
    static func exactInt(_ value: Double) -> Int? {
        guard value.isFinite, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }
}
