/// Writing a `Value` as XML, the inverse of ``XMLValue/parse(_:)``.
///
/// The value must be a one-key object naming the root element. Inside, a scalar becomes the element's text
/// (numbers and booleans as they are interpolated), `null` an empty element, an object's `@name` members
/// attributes, its `#text` member text and its other members child elements (in key order), and an array
/// repeats the element once per item. So `["P": ["url": ["amount": "1"]]]` is written
/// `<P><url><amount>1</amount></url></P>`, and parsing the result gives the value back (scalars as strings).
extension XMLValue {
    /// XML text for `value`, with an `<?xml …?>` declaration when `declaration` is true.
    /// - Returns: `nil` when `value` is not a one-key object, a name is not an XML name, or an array sits
    ///   where an attribute or the root is expected.
    package static func encode(_ value: Value, declaration: Bool = true) -> String? {
        guard case .object(let root) = value, root.count == 1, let (name, content) = root.first,
            !isArray(content)
        else { return nil }
        var out = declaration ? #"<?xml version="1.0" encoding="UTF-8"?>"# : ""
        guard writeElement(name, content, into: &out) else { return nil }
        return out
    }

    /// Whether `value` is an array.
    private static func isArray(_ value: Value) -> Bool {
        if case .array = value { return true }
        return false
    }

    /// Appends `<name …>content</name>` (or one element per item of an array); `false` when not writable.
    private static func writeElement(_ name: String, _ content: Value, into out: inout String) -> Bool {
        guard isName(name) else { return false }
        switch content {
        case .array(let items):
            for item in items {
                guard !isArray(item), writeElement(name, item, into: &out) else { return false }
            }
            return true
        case .null:
            out += "<\(name)/>"
            return true
        case .object(let members):
            out += "<\(name)"
            var children: [(String, Value)] = []
            var text: String?
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                if key.hasPrefix("@") {
                    let attribute = String(key.dropFirst())
                    guard isName(attribute), !isArray(member) else { return false }
                    if case .object = member { return false }
                    out += " \(attribute)=\"\(escape(member.interpolated, quote: true))\""
                } else if key == "#text" {
                    text = member.interpolated
                } else {
                    children.append((key, member))
                }
            }
            if children.isEmpty && (text ?? "").isEmpty {
                out += "/>"
                return true
            }
            out += ">"
            if let text { out += escape(text, quote: false) }
            for (key, member) in children {
                guard writeElement(key, member, into: &out) else { return false }
            }
            out += "</\(name)>"
            return true
        case .bool, .int, .double, .string:
            out += "<\(name)>\(escape(content.interpolated, quote: false))</\(name)>"
            return true
        }
    }

    /// Whether `name` is an XML name (ASCII subset: a letter or `_` first, then letters, digits, `-`, `.`,
    /// `_` or `:`; or any non-ASCII scalar).
    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        func isStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value > 0x7F || (scalar.properties.isAlphabetic && scalar.isASCII) || scalar == "_"
        }
        guard isStart(first) else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { scalar in
            isStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "." || scalar == ":"
        }
    }

    /// Escapes text for element content or a double-quoted attribute; characters XML 1.0 forbids become
    /// U+FFFD.
    static func escape(_ text: String, quote: Bool) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quote: out += "&quot;"
            case "\t", "\n", "\r":
                if quote { out += "&#\(scalar.value);" } else { out.unicodeScalars.append(scalar) }
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
