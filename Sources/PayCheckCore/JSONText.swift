import Foundation

/// Reads and writes JSON text for `Value`, with sorted keys so output is stable.
///
/// Parsing takes the strict fast scanner (``JSONScanner``) and falls back to `JSONDecoder` only for the
/// inputs the scanner leaves undecided (invalid JSON, duplicate keys, surrogate escapes, subnormal or
/// overflowing numbers, nesting deeper than 64), so what is accepted does not depend on the fast path.
/// Integral literals that fit in `Int` parse as `.int`, so `165000` is written back as `165000`.
package enum JSONText {
    /// Parses JSON bytes; `nil` when they are not JSON.
    package static func parse(_ bytes: some Collection<UInt8>) -> Value? {
        guard !bytes.isEmpty else { return nil }
        if let value = bytes.withContiguousStorageIfAvailable({ JSONScanner.scan($0) }) {
            return value ?? decode(Array(bytes))
        }
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { JSONScanner.scan($0) } ?? decode(array)
    }

    /// Parses JSON text; `nil` when it is not JSON.
    package static func parse(_ text: String) -> Value? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// Parses with `JSONDecoder` alone (the reference the fast scanner agrees with); `nil` when not JSON.
    package static func decode(_ bytes: [UInt8]) -> Value? {
        guard !bytes.isEmpty else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(bytes))
    }

    /// Encodes a value as compact JSON with sorted keys.
    package static func encode(_ value: Value, pretty: Bool = false) -> String {
        var out = ""
        write(value, into: &out, pretty: pretty, indent: 0)
        return out
    }

    /// Appends `value` to `out`, indented by `indent` levels when `pretty`.
    private static func write(_ value: Value, into out: inout String, pretty: Bool, indent: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? Value.format(d) : "null"
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                write(item, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                writeString(member.key, into: &out)
                out += pretty ? ": " : ":"
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "}"
        }
    }

    /// Appends a line break and `indent` levels of two-space indentation.
    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n" + String(repeating: "  ", count: indent)
    }

    /// Appends a JSON string literal with the escapes RFC 8259 requires.
    package static func writeString(_ s: String, into out: inout String) {
        out += "\""
        // Fast path: most strings need no escape, and appending them whole is much cheaper than appending
        // scalar by scalar. Only ASCII bytes can need an escape, and in UTF-8 those never occur inside a
        // multi-byte scalar.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
