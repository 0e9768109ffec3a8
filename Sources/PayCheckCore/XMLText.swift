/// Escapes text for XML 1.0 attribute values and character data.
///
/// Characters that XML 1.0 cannot carry at all (C0 controls other than tab, line feed and carriage
/// return, and U+FFFE/U+FFFF) are replaced with U+FFFD so a reader can tell something was there.
/// `>` is always escaped, so `]]>` can never appear in the output. The reports and the mocks' payer pages (XHTML)
/// both escape with it.
package enum XMLText {
    /// The character that stands in for one XML 1.0 cannot carry.
    package static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Whether XML 1.0 allows this scalar anywhere in a document (the `Char` production).
    package static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `s` escaped for a double-quoted attribute value; tab, line feed and carriage return become
    /// character references so attribute-value normalisation keeps them.
    package static func attribute(_ s: String) -> String {
        escapeUTF8(s, attribute: true)
    }

    /// `s` escaped as element content; carriage returns become `&#13;` so line-end normalisation keeps them.
    package static func text(_ s: String) -> String {
        escapeUTF8(s, attribute: false)
    }

    /// `s` escaped as HTML text that may also sit in a double-quoted attribute: ``text(_:)`` plus `"` as `&quot;`.
    package static func html(_ s: String) -> String {
        escapeUTF8(s, attribute: false, quotes: true)
    }

    /// The escaping of ``attribute(_:)``, ``text(_:)`` and ``html(_:)``, done on UTF-8 bytes.
    ///
    /// The reports escape every transcript (megabytes for 10,000 cases); appending scalar by scalar to a
    /// `String` showed in the runner's profile (Benchmarks/, docs/benchmarks.md). Working on bytes gives the
    /// same output: every character that is escaped or replaced is either ASCII (a byte below 0x80, which in
    /// UTF-8 never occurs inside a multi-byte scalar) or U+FFFE/U+FFFF (the 3-byte sequences EF BF BE/BF, and
    /// 0xEF only ever starts a scalar). (Checked against the former
    /// scalar-by-scalar loop on 300,000 random strings of escapable, replaceable and multi-byte characters.)
    static func escapeUTF8(_ s: String, attribute: Bool, quotes: Bool = false) -> String {
        var s = s
        return s.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 8 + 16)
            let replacementBytes: [UInt8] = [0xEF, 0xBF, 0xBD]
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case 0x0D: out.append(contentsOf: "&#13;".utf8)
                case UInt8(ascii: "\"") where attribute || quotes: out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'") where attribute: out.append(contentsOf: "&apos;".utf8)
                case 0x09 where attribute: out.append(contentsOf: "&#9;".utf8)
                case 0x0A where attribute: out.append(contentsOf: "&#10;".utf8)
                case 0x09, 0x0A: out.append(byte)
                case 0x00..<0x20: out.append(contentsOf: replacementBytes)
                case 0xEF where index + 1 < bytes.count && bytes[index] == 0xBF && bytes[index + 1] >= 0xBE:
                    out.append(contentsOf: replacementBytes)
                    index += 2
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
