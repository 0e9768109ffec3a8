import Foundation
import PayCheckCore

extension Redactor {
    /// The field and header names whose values are always masked, compared in lower case: a few generic names and
    /// every provider's `secretFieldNames` — the one list the mock's journal masks too.
    package struct FieldNames: Sendable {
        /// Names no one provider owns that any API may use for a secret.
        package static let generic = [
            "authorization", "password", "secret", "secret_key", "api_key", "apikey", "cvv", "cvc", "card_cvv", "securitycode",
            "security_code",
        ]

        /// The generic names alone.
        static let genericOnly = FieldNames([])

        /// The names, lower case.
        let names: Set<String>
        /// ``names`` as UTF-8 bytes (all ASCII lower case).
        let bytes: [[UInt8]]
        /// JSON `"name": "value"`, form `name=value`, XML `<name>value</name>` for every name.
        let pattern: Pattern

        /// The generic names and `providerNames` (a provider's `secretFieldNames`).
        package init(_ providerNames: some Sequence<String>) {
            names = Set((Self.generic + providerNames).map { $0.lowercased() })
            bytes = names.sorted().map { Array($0.utf8) }
            let alternatives = names.sorted().map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
            pattern = Pattern(
                try? NSRegularExpression(
                    pattern: "(\"(?:\(alternatives))\"\\s*:\\s*\")((?:[^\"\\\\]|\\\\.)*)(\")|((?:^|[&?])(?:\(alternatives))=)([^&\\s]*)()|(<(?:\(alternatives))>)([^<]*)(<)",
                    options: [.caseInsensitive]))
        }

        /// Whether `name` is one of them, ignoring case.
        package func contains(_ name: String) -> Bool { names.contains(name.lowercased()) }

        /// A compiled regular expression, shared read-only between tasks.
        final class Pattern: @unchecked Sendable {
            let regex: NSRegularExpression?
            init(_ regex: NSRegularExpression?) { self.regex = regex }
        }
    }
}

extension Redactor.FieldNames {
    /// `text` with the value of every sensitive field (JSON, form or XML) replaced by ``mask``.
    func redactFields(_ text: String) -> String {
        var text = text
        switch text.withUTF8({ self.redactFieldsASCII($0) }) {
        case .unchanged: return text
        case .redacted(let redacted): return redacted
        case .uncertain: return redactFieldsByPattern(text)
        }
    }

    /// ``redactFields(_:)`` by the regular expression alone: what ``redactFieldsASCII(_:)`` must agree with.
    func redactFieldsByPattern(_ text: String) -> String {
        guard let pattern = pattern.regex, mentions(text) else { return text }
        let range = NSRange(text.startIndex..., in: text)
        var out = ""
        var cursor = text.startIndex
        for match in pattern.matches(in: text, range: range) {
            for group in [2, 5, 8] {
                let r = match.range(at: group)
                guard r.location != NSNotFound, let valueRange = Range(r, in: text) else { continue }
                out += text[cursor..<valueRange.lowerBound]
                out += valueRange.isEmpty ? "" : Redactor.mask
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

    /// Whether `text` mentions any of ``names``, ignoring case (as `text.lowercased().contains(name)`).
    func mentions(_ text: String) -> Bool {
        let answer = ByteSearch.containsIgnoringASCIICase(text, anyOf: self.bytes)
        if let answer { return answer }
        let lowered = text.lowercased()
        return names.contains(where: { lowered.contains($0) })
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
    /// finds the same matches, left to right and without overlap, as `pattern` with its three
    /// alternatives tried in order at each position:
    /// - JSON: `"name"`, `\s*:\s*"`, then the longest run of (a byte other than `"` and `\`, or `\` plus any
    ///   byte), then `"`; the value is the run. (Backtracking cannot find a shorter match: a run can only end at
    ///   an unescaped `"`.)
    /// - form: `name=` at the very start or after `&` or `?`, then the longest run of bytes other than `&` and
    ///   whitespace (possibly empty); the value is the run.
    /// - XML: `<name>`, then the longest run of bytes other than `<`, then `<`; the value is the run.
    /// Names compare ASCII-case-insensitively; at one position at most one name can match, since a name is
    /// always followed by a delimiter (`"`, `=`, `>`) that no name contains. It gives up on text that is not
    /// simple (see ``isSimple(_:)``), on bytes whose class under ICU's `\s` or `.` is not
    /// obvious (VT, FS…US), and on a backslash followed by a line break (where `.` stops).
    func redactFieldsASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldRedaction {
        guard Redactor.isSimple(bytes) else { return .uncertain }
        for byte in bytes where byte == 0x0B || (0x1C...0x1F).contains(byte) { return .uncertain }
        let count = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        /// The index just past a sensitive name starting at `start` and followed by `delimiter`, if any.
        func name(at start: Int, before delimiter: UInt8) -> Int? {
            for name in self.bytes {
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
            out.append(contentsOf: Redactor.maskBytes)
            cursor = value.upperBound
        }
        out.append(contentsOf: bytes[cursor..<count])
        return .redacted(String(decoding: out, as: UTF8.self))
    }

}
