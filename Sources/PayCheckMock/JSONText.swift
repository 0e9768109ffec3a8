import Foundation

/// A JSON value to be rendered as text with keys in insertion order.
///
/// Values received from clients are kept as validated raw text (`.raw`) so that numbers and strings
/// are echoed back exactly as sent.
enum JSONText: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A string, escaped on rendering.
    case string(String)
    /// An array.
    case array([JSONText])
    /// An object whose members render in the given order.
    case object([(String, JSONText)])
    /// Already-valid JSON text, inserted verbatim.
    case raw(String)

    /// Renders the value as compact JSON text.
    func render() -> String {
        var output = ""
        self.write(to: &output)
        return output
    }

    /// Appends the rendered value to `output`.
    private func write(to output: inout String) {
        switch self {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .int(let value):
            output += String(value)
        case .string(let value):
            Self.writeString(value, to: &output)
        case .raw(let text):
            output += text
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Appends `value` as a quoted, escaped JSON string.
    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        // Fast path: most strings need no escape at all, and appending them whole is much cheaper than appending
        // scalar by scalar (that loop showed in the mock's profile under load). Only ASCII bytes can need an
        // escape (`"`, `\`, controls), and in UTF-8 those bytes never occur inside a multi-byte scalar.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONText {
    /// Checks that `bytes` hold one JSON value (any type, surrounding whitespace allowed).
    /// - Returns: The text, trimmed of surrounding whitespace, ready to be embedded with `.raw`.
    /// - Throws: ``MockHTTPError`` (400) with a message describing the problem.
    static func validated(_ bytes: [UInt8]) throws(MockHTTPError) -> String {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw MockHTTPError(.badRequest, "request body is empty; expected a JSON value")
        }
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        } catch {
            throw MockHTTPError(.badRequest, "request body is not valid JSON: \(MockHTTPError.quoted(text))")
        }
        return text
    }

    /// Parses `bytes` as a flat JSON object for control requests.
    /// - Throws: ``MockHTTPError`` (400) when the body is empty, not JSON, or not an object.
    static func object(_ bytes: [UInt8]) throws(MockHTTPError) -> [String: MockJSON] {
        let text = try self.validated(bytes)
        guard case .object(let object)? = MockJSON.parse(Array(text.utf8)) else {
            throw MockHTTPError(.badRequest, "request body must be a JSON object, got \(MockHTTPError.quoted(text))")
        }
        return object
    }
}
