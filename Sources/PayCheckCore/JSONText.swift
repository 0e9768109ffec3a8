import Foundation

/// Reads and writes JSON text for `Value`, with sorted keys so output is stable.
public enum JSONText {
    /// Parses JSON bytes; `nil` when they are not JSON.
    public static func parse(_ bytes: some Collection<UInt8>) -> Value? {
        guard !bytes.isEmpty else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(bytes))
    }

    /// Parses JSON text; `nil` when it is not JSON.
    public static func parse(_ text: String) -> Value? { parse(Array(text.utf8)) }

    /// Encodes a value as compact JSON with sorted keys.
    public static func encode(_ value: Value, pretty: Bool = false) -> String {
        var out = ""
        write(value, into: &out, pretty: pretty, indent: 0)
        return out
    }

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
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                writeString(key, into: &out)
                out += pretty ? ": " : ":"
                write(members[key] ?? .null, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n" + String(repeating: "  ", count: indent)
    }

    /// Appends a JSON string literal with the escapes RFC 8259 requires.
    public static func writeString(_ s: String, into out: inout String) {
        out += "\""
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
