/// Escapes text for XML 1.0 attribute values and character data.
///
/// Characters that XML 1.0 cannot carry at all (C0 controls other than tab, line feed and carriage
/// return, and U+FFFE/U+FFFF) are replaced with U+FFFD so a reader can tell something was there.
/// `>` is always escaped, so `]]>` can never appear in the output.
enum XMLText {
    /// The character that stands in for one XML 1.0 cannot carry.
    static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Whether XML 1.0 allows this scalar anywhere in a document (the `Char` production).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `s` escaped for a double-quoted attribute value; tab, line feed and carriage return become
    /// character references so attribute-value normalisation keeps them.
    static func attribute(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case let c where !isAllowed(c): out.unicodeScalars.append(replacement)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `s` escaped as element content; carriage returns become `&#13;` so line-end normalisation keeps them.
    static func text(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            case let c where !isAllowed(c): out.unicodeScalars.append(replacement)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
