import Yams

/// The implicit tag of a plain YAML scalar, decided as Yams' default resolver decides it (its rules, in its order:
/// bool, int, float, merge, null, timestamp, value; anything else is a string), without a regular expression.
///
/// Yams resolves a tag by running up to seven `NSRegularExpression`s over the scalar, and it resolves every mapping
/// key while it builds the mapping; that was most of the time lint spends on a suite file. The parser composes with
/// no implicit rules and gives each plain scalar its tag from here instead (``SuiteParser/compose()``);
/// `YAMLImplicitTagTests` checks this against Yams' resolver on every shipped suite and on the edge cases of each rule.
enum YAMLImplicitTag {
    /// The tag Yams' default resolver gives the plain scalar `text`.
    static func name(of text: String) -> Tag.Name {
        var text = text
        return text.withUTF8 { bytes in
            if isBool(bytes) { return .bool }
            if isInt(bytes) { return .int }
            if isFloat(bytes) { return .float }
            if bytes.count == 2, bytes[0] == UInt8(ascii: "<"), bytes[1] == UInt8(ascii: "<") { return .merge }
            if isNull(bytes) { return .null }
            if isTimestamp(bytes) { return .timestamp }
            if bytes.count == 1, bytes[0] == UInt8(ascii: "=") { return .value }
            return .str
        }
    }

    /// One shared tag per name: an explicit tag is never changed once made, and making one asks for
    /// `Constructor.default`, which Yams builds anew on every access.
    nonisolated(unsafe) private static let tags: [Tag.Name: Tag] = {
        return Dictionary(uniqueKeysWithValues: [Tag.Name.bool, .int, .float, .merge, .null, .timestamp, .value, .str].map { ($0, Tag($0, .default, constructor)) })
    }()

    /// The one `Constructor` every parse is given (``SuiteParser/compose()``), made once for the same reason.
    nonisolated(unsafe) static let constructor = Constructor.default

    /// The shared tag ``name(of:)`` gives `text`.
    static func tag(of text: String) -> Tag {
        let name = self.name(of: text)
        return tags[name] ?? Tag(name)
    }

    private typealias Bytes = UnsafeBufferPointer<UInt8>

    private static let bools: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
    ]

    private static func isBool(_ b: Bytes) -> Bool {
        (2...5).contains(b.count) && bools.contains(String(decoding: b, as: UTF8.self))
    }

    private static func isNull(_ b: Bytes) -> Bool {
        switch b.count {
        case 0: return true
        case 1: return b[0] == UInt8(ascii: "~")
        case 4: return ["null", "Null", "NULL"].contains(String(decoding: b, as: UTF8.self))
        default: return false
        }
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    /// The index after an optional sign.
    private static func afterSign(_ b: Bytes) -> Int {
        b.count > 0 && (b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-")) ? 1 : 0
    }

    /// Whether `b[from...]` is one or more bytes, all satisfying `allowed`.
    private static func all(_ b: Bytes, from: Int, _ allowed: (UInt8) -> Bool) -> Bool {
        from < b.count && (from..<b.count).allSatisfy { allowed(b[$0]) }
    }

    /// `(?::[0-5]?[0-9])+` from `i`; the index after it, or `nil` when there is none.
    private static func sexagesimal(_ b: Bytes, from start: Int) -> Int? {
        var i = start
        var groups = 0
        while i < b.count, b[i] == UInt8(ascii: ":") {
            var j = i + 1
            if j + 1 < b.count, b[j] >= 0x30, b[j] <= 0x35, isDigit(b[j + 1]) {
                j += 2
            } else if j < b.count, isDigit(b[j]) {
                j += 1
            } else {
                return groups > 0 ? i : nil
            }
            i = j
            groups += 1
        }
        return groups > 0 ? i : nil
    }

    /// `[1-9][0-9_]*` (or `[0-9][0-9_]*` when `leadingZero`) from `i`: the index after it, or `nil`.
    private static func digits(_ b: Bytes, from i: Int, leadingZero: Bool) -> Int? {
        guard i < b.count, isDigit(b[i]), leadingZero || b[i] != UInt8(ascii: "0") else { return nil }
        var j = i + 1
        while j < b.count, isDigit(b[j]) || b[j] == UInt8(ascii: "_") { j += 1 }
        return j
    }

    private static func isInt(_ b: Bytes) -> Bool {
        let s = afterSign(b)
        guard s < b.count else { return false }
        let underscore = UInt8(ascii: "_")
        if b[s] == UInt8(ascii: "0") {
            if s + 1 == b.count { return true }  // 0
            let next = b[s + 1]
            if next == UInt8(ascii: "b") { return all(b, from: s + 2) { $0 == 0x30 || $0 == 0x31 || $0 == underscore } }
            if next == UInt8(ascii: "x") {
                return all(b, from: s + 2) { isDigit($0) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) || $0 == underscore }
            }
            let octal = next == UInt8(ascii: "o") ? s + 2 : s + 1
            return all(b, from: octal) { ($0 >= 0x30 && $0 <= 0x37) || $0 == underscore }
        }
        guard let end = digits(b, from: s, leadingZero: false) else { return false }
        if end == b.count { return true }
        return sexagesimal(b, from: end) == b.count
    }

    private static func isFloat(_ b: Bytes) -> Bool {
        let dot = UInt8(ascii: ".")
        let s = afterSign(b)
        // [-+]?\.(inf|Inf|INF) and \.(nan|NaN|NAN)
        if b.count - s == 4, b[s] == dot {
            let word = String(decoding: UnsafeBufferPointer(rebasing: b[(s + 1)...]), as: UTF8.self)
            if ["inf", "Inf", "INF"].contains(word) { return true }
            if s == 0, ["nan", "NaN", "NAN"].contains(word) { return true }
        }
        // \.[0-9_]+([eE][-+][0-9]+)?, no sign
        if s == 0, b.count > 1, b[0] == dot {
            var i = 1
            while i < b.count, isDigit(b[i]) || b[i] == UInt8(ascii: "_") { i += 1 }
            guard i > 1 else { return false }
            if i == b.count { return true }
            return exponent(b, from: i, signRequired: true) == b.count
        }
        guard let end = digits(b, from: s, leadingZero: true) else { return false }
        // [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
        if let after = sexagesimal(b, from: end), after < b.count, b[after] == dot {
            return (after + 1..<b.count).allSatisfy { isDigit(b[$0]) || b[$0] == UInt8(ascii: "_") }
        }
        // [-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?
        var i = end
        if i < b.count, b[i] == dot {
            i += 1
            while i < b.count, isDigit(b[i]) || b[i] == UInt8(ascii: "_") { i += 1 }
        }
        if i == b.count { return true }
        return exponent(b, from: i, signRequired: false) == b.count
    }

    /// `[eE][-+]?[0-9]+` (the sign required when `signRequired`) from `i`: the index after it, or `nil`.
    private static func exponent(_ b: Bytes, from start: Int, signRequired: Bool) -> Int? {
        var i = start
        guard i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") else { return nil }
        i += 1
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            i += 1
        } else if signRequired {
            return nil
        }
        let first = i
        while i < b.count, isDigit(b[i]) { i += 1 }
        return i > first ? i : nil
    }

    /// `n` ASCII digits from `i`.
    private static func fixedDigits(_ b: Bytes, _ i: Int, _ n: Int) -> Bool {
        i + n <= b.count && (i..<i + n).allSatisfy { isDigit(b[$0]) }
    }

    /// One or two digits from `i`: the index after them, or `nil`.
    private static func oneOrTwoDigits(_ b: Bytes, _ i: Int) -> Int? {
        guard i < b.count, isDigit(b[i]) else { return nil }
        return i + 1 < b.count && isDigit(b[i + 1]) ? i + 2 : i + 1
    }

    private static func isTimestamp(_ b: Bytes) -> Bool {
        let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
        guard fixedDigits(b, 0, 4), b.count > 4, b[4] == dash else { return false }
        // YYYY-MM-DD
        if b.count == 10, fixedDigits(b, 5, 2), b[7] == dash, fixedDigits(b, 8, 2) { return true }
        // YYYY-M?M-D?D(T|[ \t]+)H?H:MM:SS(\.[0-9]*)?([ \t]*(Z|[-+]H?H(:MM)?))?
        guard let month = oneOrTwoDigits(b, 5), month < b.count, b[month] == dash, let day = oneOrTwoDigits(b, month + 1),
            day < b.count
        else { return false }
        var i = day
        if b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") {
            i += 1
        } else {
            let start = i
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
            guard i > start else { return false }
        }
        guard let hour = oneOrTwoDigits(b, i), hour < b.count, b[hour] == colon, fixedDigits(b, hour + 1, 2), hour + 3 < b.count,
            b[hour + 3] == colon, fixedDigits(b, hour + 4, 2)
        else { return false }
        i = hour + 6
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            while i < b.count, isDigit(b[i]) { i += 1 }
        }
        if i == b.count { return true }
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: "Z") { return i + 1 == b.count }
        guard b[i] == UInt8(ascii: "+") || b[i] == dash, let zone = oneOrTwoDigits(b, i + 1) else { return false }
        if zone == b.count { return true }
        return b[zone] == colon && fixedDigits(b, zone + 1, 2) && zone + 3 == b.count
    }
}
