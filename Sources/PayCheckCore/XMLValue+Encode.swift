/// Writes a `Value` as XML, the inverse of ``XMLValue/parse(_:)`` for the shapes it produces.
extension XMLValue {
    /// An XML document with `root` as its element: object members become child elements in key order (arrays
    /// repeat the element), `@name` members become attributes, `#text` is text, scalars are escaped text.
    public static func encode(_ value: Value, root: String) -> String {
        var out = ""
        write(value, name: root, into: &out)
        return out
    }

    /// Appends one element.
    private static func write(_ value: Value, name: String, into out: inout String) {
        switch value {
        case .array(let items):
            for item in items { write(item, name: name, into: &out) }
        case .object(let members):
            out += "<" + name
            for key in members.keys.sorted() where key.hasPrefix("@") {
                out += " " + key.dropFirst() + "=\"" + escape(members[key]?.interpolated ?? "", quote: true) + "\""
            }
            out += ">"
            if let text = members["#text"] { out += escape(text.interpolated, quote: false) }
            for key in members.keys.sorted() where !key.hasPrefix("@") && key != "#text" {
                write(members[key] ?? .null, name: key, into: &out)
            }
            out += "</" + name + ">"
        default:
            out += "<" + name + ">" + escape(value.interpolated, quote: false) + "</" + name + ">"
        }
    }

    /// Escapes text for element content or a quoted attribute.
    public static func escape(_ text: String, quote: Bool) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quote: out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
