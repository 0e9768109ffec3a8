/// Reads and writes `application/x-www-form-urlencoded` text (WHATWG URL Standard §5) for flat key/values.
///
/// Encoding leaves ASCII letters, digits and `*-._` as they are, writes a space as `+` and percent-encodes
/// every other UTF-8 byte with upper-case hex. Decoding splits on `&`, reads `+` as a space, decodes `%XX`
/// (a `%` not followed by two hex digits stays as is) and repairs invalid UTF-8 with U+FFFD. Nested keys
/// (`a[b]=c`) get no special meaning: they are names like any other.
package enum FormText {
    /// Encodes `pairs` in order as `name=value&…`.
    package static func encode(_ pairs: [(name: String, value: String)]) -> String {
        var out = ""
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out += "&" }
            out += percentEncode(pair.name)
            out += "="
            out += percentEncode(pair.value)
        }
        return out
    }

    /// Encodes an object with keys sorted; an array member repeats its key once per item, `null` is empty,
    /// other values are written as they are interpolated (a nested object as JSON text).
    /// - Returns: `nil` when `value` is not an object.
    package static func encode(_ value: Value) -> String? {
        guard case .object(let members) = value else { return nil }
        return encode(pairs(of: members))
    }

    /// The name/value pairs of an object, keys sorted, arrays expanded to repeated keys.
    package static func pairs(of members: [String: Value]) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if case .array(let items) = member {
                for item in items { pairs.append((name, item.interpolated)) }
            } else {
                pairs.append((name, member.interpolated))
            }
        }
        return pairs
    }

    /// Decodes `text` into name/value pairs in order; empty sequences between `&` are skipped and a pair
    /// without `=` has an empty value.
    package static func decodePairs(_ text: String) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for sequence in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = sequence.firstIndex(of: UInt8(ascii: "=")) {
                let name = percentDecode(sequence[sequence.startIndex..<equals])
                let value = percentDecode(sequence[sequence.index(after: equals)...])
                pairs.append((name, value))
            } else {
                pairs.append((percentDecode(sequence), ""))
            }
        }
        return pairs
    }

    /// Decodes `text` into an object of strings; a repeated name becomes an array of its values in order.
    package static func decode(_ text: String) -> Value {
        var members: [String: Value] = [:]
        for (name, value) in decodePairs(text) {
            switch members[name] {
            case nil: members[name] = .string(value)
            case .array(var items)?:
                items.append(.string(value))
                members[name] = .array(items)
            case let first?: members[name] = .array([first, .string(value)])
            }
        }
        return .object(members)
    }

    /// Percent-encodes one name or value with the form byte set; a space becomes `+`, or `%20` when
    /// `spaceAsPlus` is false (for query strings read by servers that do not decode `+`).
    package static func percentEncode(_ text: String, spaceAsPlus: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                out.append(byte)
            case UInt8(ascii: " ") where spaceAsPlus:
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-encodes `text` per RFC 3986 (PHP `rawurlencode`): the unreserved `A–Z a–z 0–9 - . _ ~` stay,
    /// every other UTF-8 byte becomes `%XX` with upper-case hex (a space is `%20`). khipu signs with it.
    package static func percentEncodeRFC3986(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `+` and `%XX` in one name or value.
    package static func percentDecode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The upper-case hex digit for a value 0–15.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// The value of a hex digit, or `nil`.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
