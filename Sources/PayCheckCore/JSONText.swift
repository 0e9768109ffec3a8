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
        String(decoding: encodeBytes(value, pretty: pretty), as: UTF8.self)
    }

    /// Encodes a value as the UTF-8 bytes of ``encode(_:pretty:)``. The writer works on bytes: appending to a
    /// `String` piece by piece was most of the cost of the mocks' answers and webhooks under load
    /// (docs/benchmarks.md, the Yuno lifecycle profile).
    package static func encodeBytes(_ value: Value, pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out, pretty: pretty, indent: 0)
        return out
    }

    /// Appends `value` to `out`, indented by `indent` levels when `pretty` (a writer that streams a large document
    /// writes its parts at their depth, ``JSONReporter``).
    package static func write(_ value: Value, into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: (d.isFinite ? Value.format(d) : "null").utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                write(item, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                writeString(member.key, into: &out)
                if pretty { out.append(contentsOf: ": ".utf8) } else { out.append(UInt8(ascii: ":")) }
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a line break and `indent` levels of two-space indentation.
    package static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// Appends the UTF-8 bytes of a JSON string literal with the escapes RFC 8259 requires. Only ASCII bytes can need
    /// an escape, and in UTF-8 those never occur inside a multi-byte scalar, so every other byte is copied as is.
    package static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var plain = utf8.startIndex
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain..<index]))
                plain = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
                default:
                    let digits = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(digits[Int(byte >> 4)])
                    out.append(digits[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain..<utf8.endIndex]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
