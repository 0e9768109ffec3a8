import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes secrets from text before it reaches any result, event or report.
///
/// Three layers: every registered secret value (from `--secret`, provider credentials, derived
/// signatures, `secret: true` captures) is replaced wherever it appears; values of sensitive
/// fields and headers (`tranKey`, `authorization`, `private-secret-key`…) are replaced by name;
/// card numbers (13–19 digits passing Luhn) keep only their last four digits.
public struct Redactor: Sendable {
    /// The replacement text.
    public static let mask = "••••••"
    /// Field and header names whose values are always redacted (lower case).
    public static let sensitiveNames: Set<String> = [
        "authorization", "trankey", "secretkey", "secret_key", "secret", "password", "pwd", "apikey", "api_key",
        "x-api-key", "private-secret-key", "x-secret", "cvv", "cvc", "card_cvv", "securitycode", "security_code",
    ]

    private var secrets: [String]

    /// Creates a redactor for these secret values (empty and very short values are ignored: they would mask everything).
    public init(secrets: some Sequence<String> = []) {
        self.secrets = []
        for s in secrets { add(s) }
    }

    /// Adds a secret value.
    public mutating func add(_ secret: String) {
        guard secret.count >= 4, !secrets.contains(secret) else { return }
        secrets.append(secret)
        secrets.sort { $0.count > $1.count }
    }

    /// Whether there is nothing to redact by value.
    public var isEmpty: Bool { secrets.isEmpty }

    /// The redacted form of a text.
    public func redact(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        var out = text
        for secret in secrets where Redactor.occurs(secret, in: out) {
            out = Redactor.replacingSimple(secret, in: out) ?? out.replacingOccurrences(of: secret, with: Redactor.mask)
        }
        out = Redactor.redactFields(out)
        out = Redactor.maskCardNumbers(out)
        return out
    }

    /// Redacts a header value when the header name is sensitive.
    public func redactHeader(name: String, value: String) -> String {
        Redactor.sensitiveNames.contains(name.lowercased()) ? Redactor.mask : redact(value)
    }

    nonisolated(unsafe) private static let fieldPattern: NSRegularExpression? = {
        let names = sensitiveNames.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        // JSON `"name": "value"`, form `name=value`, XML `<name>value</name>`.
        return try? NSRegularExpression(
            pattern: "(\"(?:\(names))\"\\s*:\\s*\")((?:[^\"\\\\]|\\\\.)*)(\")|((?:^|[&?])(?:\(names))=)([^&\\s]*)()|(<(?:\(names))>)([^<]*)(<)",
            options: [.caseInsensitive])
    }()

    static func redactFields(_ text: String) -> String {
        var text = text
        switch text.withUTF8({ redactFieldsASCII($0) }) {
        case .unchanged: return text
        case .redacted(let redacted): return redacted
        case .uncertain: break
        }
        guard let pattern = fieldPattern, mentionsSensitiveName(text) else { return text }
        let range = NSRange(text.startIndex..., in: text)
        var out = ""
        var cursor = text.startIndex
        for match in pattern.matches(in: text, range: range) {
            for group in [2, 5, 8] {
                let r = match.range(at: group)
                guard r.location != NSNotFound, let valueRange = Range(r, in: text) else { continue }
                out += text[cursor..<valueRange.lowerBound]
                out += valueRange.isEmpty ? "" : mask
                cursor = valueRange.upperBound
            }
        }
        out += text[cursor...]
        return out
    }

    // MARK: Fast pre-checks
    //
    // `redact` runs on every URL, header value and body of every exchange. Foundation's `String.contains`
    // bridges to NSString (CFStringFind) and `lowercased()` allocates, which made these pre-checks the top of the
    // runner's profile (Benchmarks/, docs/benchmarks.md). For ASCII text — URLs, headers, JSON bodies — a byte
    // search gives the same answer (ASCII has no canonical equivalents or case mappings beyond A–Z); any other
    // text takes the original Foundation path, so the result never changes.

    /// Whether `needle` occurs in `text` (as `text.contains(needle)` decides).
    static func occurs(_ needle: String, in text: String) -> Bool {
        var text = text
        var needle = needle
        let answer: Bool? = text.withUTF8 { haystack in
            needle.withUTF8 { needle in
                guard isSimple(haystack), isSimple(needle) else { return nil }
                return find(needle, in: haystack) != nil
            }
        }
        return answer ?? text.contains(needle)
    }

    /// Whether `text` mentions any of ``sensitiveNames``, ignoring case (as `text.lowercased().contains(name)`).
    static func mentionsSensitiveName(_ text: String) -> Bool {
        var text = text
        let answer: Bool? = text.withUTF8 { bytes in
            guard isASCII(bytes) else { return nil }
            let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            return lowered.withUnsafeBufferPointer { haystack in
                sensitiveNameBytes.contains { name in name.withUnsafeBufferPointer { find($0, in: haystack) != nil } }
            }
        }
        if let answer { return answer }
        let lowered = text.lowercased()
        return sensitiveNames.contains(where: { lowered.contains($0) })
    }

    /// The answer of ``redactFieldsASCII(_:)``.
    enum FieldRedaction {
        /// No value to redact: the text stays as it is.
        case unchanged
        /// The text with every sensitive value masked.
        case redacted(String)
        /// Outside the subset the scanner is sure about: the regular expression decides.
        case uncertain
    }

    /// ``redactFields(_:)`` without the regular expression, for ASCII text; `.uncertain` outside the subset where
    /// the answer is certain, and then the regular expression decides.
    ///
    /// ICU's regular expression engine was the runner's largest cost after the pre-checks above. This scanner
    /// finds the same matches, left to right and without overlap, as `fieldPattern` with its three
    /// alternatives tried in order at each position:
    /// - JSON: `"name"`, `\s*:\s*"`, then the longest run of (a byte other than `"` and `\`, or `\` plus any
    ///   byte), then `"`; the value is the run. (Backtracking cannot find a shorter match: a run can only end at
    ///   an unescaped `"`.)
    /// - form: `name=` at the very start or after `&` or `?`, then the longest run of bytes other than `&` and
    ///   whitespace (possibly empty); the value is the run.
    /// - XML: `<name>`, then the longest run of bytes other than `<`, then `<`; the value is the run.
    /// Names compare ASCII-case-insensitively; at one position at most one name can match, since a name is
    /// always followed by a delimiter (`"`, `=`, `>`) that no name contains. It gives up on non-ASCII text other
    /// than the mask character (see ``isSimple(_:)``), on bytes whose class under ICU's `\s` or `.` is not
    /// obvious (VT, FS…US), and on a backslash followed by a line break (where `.` stops).
    static func redactFieldsASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldRedaction {
        guard isSimple(bytes) else { return .uncertain }
        for byte in bytes where byte == 0x0B || (0x1C...0x1F).contains(byte) { return .uncertain }
        let count = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        /// The index just past a sensitive name starting at `start` and followed by `delimiter`, if any.
        func name(at start: Int, before delimiter: UInt8) -> Int? {
            for name in sensitiveNameBytes {
                let end = start + name.count
                guard end < count, bytes[end] == delimiter else { continue }
                var equal = true
                for offset in 0..<name.count {
                    let byte = bytes[start + offset]
                    if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != name[offset] {
                        equal = false
                        break
                    }
                }
                if equal { return end }
            }
            return nil
        }
        var values: [Range<Int>] = []
        var position = 0
        scan: while position < count {
            let byte = bytes[position]
            // JSON alternative.
            if byte == UInt8(ascii: "\""), let end = name(at: position + 1, before: UInt8(ascii: "\"")) {
                var cursor = end + 1
                while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
                if cursor < count, bytes[cursor] == UInt8(ascii: ":") {
                    cursor += 1
                    while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
                    if cursor < count, bytes[cursor] == UInt8(ascii: "\"") {
                        let start = cursor + 1
                        var run = start
                        while run < count, bytes[run] != UInt8(ascii: "\"") {
                            if bytes[run] == UInt8(ascii: "\\") {
                                guard run + 1 < count else { break }
                                if (0x0A...0x0D).contains(bytes[run + 1]) { return .uncertain }
                                run += 2
                            } else {
                                run += 1
                            }
                        }
                        if run < count, bytes[run] == UInt8(ascii: "\"") {
                            values.append(start..<run)
                            position = run + 1
                            continue scan
                        }
                    }
                }
            }
            // Form alternative: `^` first, then `[&?]`.
            var nameEnd: Int?
            if position == 0 { nameEnd = name(at: 0, before: UInt8(ascii: "=")) }
            if nameEnd == nil, byte == UInt8(ascii: "&") || byte == UInt8(ascii: "?") {
                nameEnd = name(at: position + 1, before: UInt8(ascii: "="))
            }
            if let end = nameEnd {
                let start = end + 1
                var run = start
                while run < count, bytes[run] != UInt8(ascii: "&"), !isSpace(bytes[run]) { run += 1 }
                values.append(start..<run)
                position = run
                continue scan
            }
            // XML alternative.
            if byte == UInt8(ascii: "<"), let end = name(at: position + 1, before: UInt8(ascii: ">")) {
                let start = end + 1
                var run = start
                while run < count, bytes[run] != UInt8(ascii: "<") { run += 1 }
                if run < count {
                    values.append(start..<run)
                    position = run + 1
                    continue scan
                }
            }
            position += 1
        }
        guard values.contains(where: { !$0.isEmpty }) else { return .unchanged }
        var out: [UInt8] = []
        out.reserveCapacity(count + 16)
        var cursor = 0
        for value in values where !value.isEmpty {
            out.append(contentsOf: bytes[cursor..<value.lowerBound])
            out.append(contentsOf: maskBytes)
            cursor = value.upperBound
        }
        out.append(contentsOf: bytes[cursor..<count])
        return .redacted(String(decoding: out, as: UTF8.self))
    }

    /// ``mask`` as UTF-8 bytes.
    private static let maskBytes = Array(mask.utf8)

    /// ``sensitiveNames`` as UTF-8 bytes (all ASCII lower case).
    private static let sensitiveNameBytes: [[UInt8]] = sensitiveNames.map { Array($0.utf8) }

    /// Whether every byte is ASCII.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }

    /// Whether the text is ASCII apart from U+2022 BULLET, the character of ``mask``.
    ///
    /// Secrets are replaced by the mask *before* the field pass, so a signed request body is no longer pure
    /// ASCII when it gets there. The bullet is safe to treat as an opaque character everywhere the fast paths
    /// care: it is no whitespace, no line terminator, has no case mapping and no canonical decomposition, and
    /// the only bytes the scanners act on are ASCII, which never occur inside its UTF-8 form (E2 80 A2).
    static func isSimple(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(bytes) { return true }
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
            } else if index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA2 {
                index += 3
            } else {
                return false
            }
        }
        return true
    }

    /// `text` with every occurrence of `secret` replaced by ``mask``, left to right (what
    /// `replacingOccurrences(of:with:)` does), when both are simple; `nil` otherwise.
    static func replacingSimple(_ secret: String, in text: String) -> String? {
        var text = text
        var secret = secret
        return text.withUTF8 { haystack -> String? in
            secret.withUTF8 { needle -> String? in
                guard !needle.isEmpty, isSimple(haystack), isSimple(needle) else { return nil }
                var out: [UInt8] = []
                out.reserveCapacity(haystack.count)
                var cursor = 0
                while cursor < haystack.count {
                    let rest = UnsafeBufferPointer(rebasing: haystack[cursor...])
                    guard let offset = find(needle, in: rest) else { break }
                    out.append(contentsOf: rest[..<offset])
                    out.append(contentsOf: maskBytes)
                    cursor += offset + needle.count
                }
                out.append(contentsOf: haystack[cursor...])
                return String(decoding: out, as: UTF8.self)
            }
        }
    }

    /// The first offset of `needle` in `haystack`, byte for byte (first-byte scan, then `memcmp`).
    private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !needle.isEmpty else { return 0 }
        guard needle.count <= haystack.count, let h = haystack.baseAddress, let n = needle.baseAddress else { return nil }
        let first = n.pointee
        var index = 0
        let lastStart = haystack.count - needle.count
        while index <= lastStart {
            if h[index] == first, memcmp(h + index, n, needle.count) == 0 { return index }
            index += 1
        }
        return nil
    }

    /// Masks digit runs that are card numbers (Luhn-valid, 13–19 digits), keeping the last four.
    ///
    /// Works on UTF-8 bytes (it was an ICU regular expression, `(?<![0-9])[0-9]{13,19}(?![0-9])`, which matches
    /// exactly the maximal runs of 13 to 19 ASCII digits; ASCII digits never occur inside a multi-byte scalar).
    static func maskCardNumbers(_ text: String) -> String {
        guard text.utf8.count >= 13 else { return text }
        var text = text
        let masked: String? = text.withUTF8 { bytes in
            func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
            var out: [UInt8] = []
            var cursor = 0
            var index = 0
            while index < bytes.count {
                guard isDigit(bytes[index]) else {
                    index += 1
                    continue
                }
                var end = index
                while end < bytes.count, isDigit(bytes[end]) { end += 1 }
                let run = bytes[index..<end]
                if (13...19).contains(run.count), luhn(run) {
                    if out.isEmpty { out.reserveCapacity(bytes.count + 32) }
                    out.append(contentsOf: bytes[cursor..<index])
                    for _ in 0..<(run.count - 4) { out.append(contentsOf: cardMaskBytes) }
                    out.append(contentsOf: bytes[(end - 4)..<end])
                    cursor = end
                }
                index = end
            }
            guard cursor > 0 else { return nil }
            out.append(contentsOf: bytes[cursor...])
            return String(decoding: out, as: UTF8.self)
        }
        return masked ?? text
    }

    /// "•" as UTF-8 bytes.
    private static let cardMaskBytes = Array("•".utf8)

    /// The Luhn check of ASCII digits.
    static func luhn(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var sum = 0
        for (i, byte) in digits.reversed().enumerated() {
            var d = Int(byte) - 0x30
            if i % 2 == 1 { d *= 2; if d > 9 { d -= 9 } }
            sum += d
        }
        return sum % 10 == 0
    }

    static func luhn(_ digits: String) -> Bool {
        var sum = 0
        for (i, c) in digits.reversed().enumerated() {
            guard var d = c.wholeNumberValue else { return false }
            if i % 2 == 1 { d *= 2; if d > 9 { d -= 9 } }
            sum += d
        }
        return sum % 10 == 0
    }
}
