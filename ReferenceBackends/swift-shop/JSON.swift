// JSON as the shop reads and writes it: a small value type that Foundation's JSONDecoder and JSONEncoder handle.
import Foundation

/// A JSON value, with integers and other numbers kept apart (a PlacetoPay `requestId` may be either a string or an
/// integer).
enum JSONValue: Sendable, Equatable, Codable {
    /// `null`, `true` or `false`, an integer, any other number, a string, an array, an object.
    case null, bool(Bool), int(Int), double(Double), string(String), array([JSONValue]), object([String: JSONValue])

    /// Parses `bytes` as JSON; `nil` when they are not JSON.
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// Reads whichever kind of value `decoder` holds.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes the value to `encoder`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as JSON text in UTF-8 (`null` for a number JSON cannot hold, which the shop never builds).
    var serialized: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("null".utf8))
    }

    /// The value of member `key` of an object; `nil` for a missing member or a value that is not an object.
    /// The object with member `key` set to `value` (left out when `value` is `nil`; anything else as it is).
    func setting(_ key: String, _ value: JSONValue?) -> JSONValue {
        guard case .object(var members) = self, let value else { return self }
        members[key] = value
        return .object(members)
    }

    /// The object without member `key` (anything else as it is).
    func removing(_ key: String) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = nil
        return .object(members)
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// Whether it is an object.
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The string, when it is one.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The text of a string as is, or of an integer in decimal (`"123"` for both `"123"` and `123`); `nil` for
    /// anything else.
    var text: String? {
        switch self {
        case .string(let text): text
        case .int(let value): String(value)
        default: nil
        }
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object with these members.
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string.
    init(stringLiteral value: String) {
        self = .string(value)
    }
}
