import Foundation
import PayCheckCore

/// The small ordered XML writer MIT's documents need: MIT's XSD is a sequence, so children are written in the order
/// given (the shared ``XMLValue`` writer sorts members by key), text escaped, no declaration (§5.11 C8).
package enum MITXML {
    /// One element with ordered attributes and children, or text.
    package struct Element: Sendable {
        package var name: String
        package var attributes: [(String, String)] = []
        package var children: [Element] = []
        package var value: String?

        package init(_ name: String, _ value: String? = nil) {
            self.name = name
            self.value = value
        }

        /// Appends a text child.
        package mutating func add(_ name: String, _ value: String) { children.append(Element(name, value)) }

        /// The element as XML text.
        package var text: String {
            var out = "<" + name
            for (key, value) in attributes { out += " \(key)=\"\(MITXML.escape(value))\"" }
            out += ">"
            if let value { out += MITXML.escape(value) }
            for child in children { out += child.text }
            return out + "</" + name + ">"
        }
    }

    /// `&`, `<`, `>`, `"` escaped.
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The text between the first `<name>` and the following `</name>`, as MIT's receivers locate it.
    /// Searched on UTF-8 bytes: the tags are ASCII, and Foundation's `range(of:)` here was 5% of the MIT mock's CPU
    /// under load (docs/benchmarks.md).
    package static func inner(_ name: String, in text: String) -> String? {
        var text = text
        let openTag = Array("<\(name)>".utf8), closeTag = Array("</\(name)>".utf8)
        return text.withUTF8 { bytes -> String? in
            openTag.withUnsafeBufferPointer { open in
                closeTag.withUnsafeBufferPointer { close in
                    guard let start = ByteSearch.find(open, in: bytes).map({ $0 + open.count }),
                        let length = ByteSearch.find(close, in: UnsafeBufferPointer(rebasing: bytes[start...]))
                    else { return nil }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + length]), as: UTF8.self)
                }
            }
        }
    }
}
