import Foundation
import PayCheckCore

/// Removes secrets from text before it reaches any result, event or report.
///
/// Three layers: every registered secret value (from `--secret`, provider credentials, derived
/// signatures, `secret: true` captures) is replaced wherever it appears — as written, percent- or
/// form-encoded, JSON- or HTML-escaped, or Base64-encoded (see ``SecretForms`` and ``EncodedText``);
/// values of sensitive fields and headers (``FieldNames``: `authorization`, `password`… and every provider's
/// `secretFieldNames`, such as `tranKey` or `private-secret-key`) are replaced by name; card numbers (13–19 digits passing Luhn, also written in groups separated by spaces
/// or dashes) keep only their last four digits.
package struct Redactor: Sendable {
    /// The replacement text.
    package static let mask = "••••••"
    /// The character ``mask`` repeats.
    static let maskCharacter: Character = "•"
    /// The shortest secret that is redacted; shorter ones would mask unrelated text and are refused.
    static let minimumSecretLength = 4
    /// Field and header names whose values are always redacted: the generic ones and the providers'.
    package let fieldNames: FieldNames

    /// The registered secret values, longest first.
    private var secrets: [String] = []
    /// Every form of every secret, as Unicode scalar values (see ``SecretForms``).
    private var patterns: [[UInt32]] = []
    /// For an ASCII first scalar, the indices of the patterns that start with it.
    private var asciiFirst: [[Int]] = Array(repeating: [], count: 128)
    /// For a non-ASCII first scalar, the indices of the patterns that start with it.
    private var otherFirst: [UInt32: [Int]] = [:]
    /// Bytes at which a match can start: first bytes of the patterns, and the escape introducers.
    private var startBytes: [Bool] = Redactor.escapeStartBytes
    /// Whether every secret is simple text (``isSimple(_:)``): then, in simple text, a secret as written matches
    /// exactly where its bytes do, and the byte scan alone decides.
    private var secretsAreSimple = true

    /// Creates a redactor for these secret values (empty and very short values are ignored: they would mask everything)
    /// and these field names (the providers' `secretFieldNames`; the generic names are always in).
    package init(secrets: some Sequence<String> = [], fieldNames: FieldNames = .genericOnly) {
        self.fieldNames = fieldNames
        for s in secrets { add(s) }
    }

    /// Whether a secret value is too short to be redacted safely (empty values are not secrets at all).
    package static func isTooShort(_ secret: String) -> Bool {
        !secret.isEmpty && secret.count < minimumSecretLength
    }

    /// Adds a secret value, with its encoded forms; returns `false` when it is too short to be redacted
    /// (see ``minimumSecretLength``) and so will appear in clear.
    @discardableResult
    package mutating func add(_ secret: String) -> Bool {
        guard secret.count >= Redactor.minimumSecretLength else { return secret.isEmpty }
        guard !secrets.contains(secret) else { return true }
        secrets.append(secret)
        secrets.sort { $0.count > $1.count }
        var text = secret
        if !text.withUTF8({ Redactor.isSimple($0) }) { secretsAreSimple = false }
        for form in SecretForms.forms(of: secret) {
            let index = patterns.count
            patterns.append(form)
            let first = form[0]
            if first < 128 { asciiFirst[Int(first)].append(index) } else { otherFirst[first, default: []].append(index) }
            startBytes[Int(Redactor.utf8Lead(of: first))] = true
            if first == 0x20 { startBytes[Int(UInt8(ascii: "+"))] = true }
        }
        return true
    }

    /// The first UTF-8 byte of a scalar value.
    static func utf8Lead(of scalar: UInt32) -> UInt8 {
        switch scalar {
        case ..<0x80: UInt8(scalar)
        case ..<0x800: UInt8(0xC0 | scalar >> 6)
        case ..<0x10000: UInt8(0xE0 | scalar >> 12)
        default: UInt8(0xF0 | scalar >> 18)
        }
    }

    /// Whether there is nothing to redact by value.
    package var isEmpty: Bool { secrets.isEmpty }

    /// The redacted form of a text.
    package func redact(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        var out = maskSecrets(text)
        out = fieldNames.redactFields(out)
        out = CardNumberMask.apply(out)
        return out
    }

    /// ``redact(_:)`` with Foundation and the regular expression deciding wherever the fast paths could: what the
    /// fast paths are checked against (RedactorTests).
    func redactWithoutFastPaths(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        var copy = text
        var out = copy.withUTF8 { scan($0) } ?? text
        for secret in secrets where out.contains(secret) { out = out.replacingOccurrences(of: secret, with: Redactor.mask) }
        out = fieldNames.redactFieldsByPattern(out)
        return CardNumberMask.apply(out)
    }

    /// Redacts a header value when the header name is sensitive.
    package func redactHeader(name: String, value: String) -> String {
        fieldNames.contains(name) ? Redactor.mask : redact(value)
    }

    /// Redacts every text of an exchange (after a secret was learnt from it, such as a `secret: true` capture).
    package func redact(_ exchange: Exchange) -> Exchange {
        var e = exchange
        e.url = redact(e.url)
        e.requestHeaders = e.requestHeaders.map { ($0.name, redactHeader(name: $0.name, value: $0.value)) }
        e.requestBody = redact(e.requestBody)
        e.responseHeaders = e.responseHeaders.map { ($0.name, redactHeader(name: $0.name, value: $0.value)) }
        e.responseBody = redact(e.responseBody)
        e.readBody = e.readBody.map(redact)
        e.error = e.error.map(redact)
        e.retries = e.retries.map(redact)
        return e
    }

    /// `text` with every secret, in any of its forms, replaced by ``mask``.
    ///
    /// One pass over the UTF-8 bytes finds every form of every secret in any encoding ``EncodedText`` reads
    /// (the longest match wins at each position). Text that is not simple (see ``isSimple(_:)``) then also goes
    /// through Foundation for each secret as written, which compares canonically equivalent characters as
    /// equal, as redaction always did.
    func maskSecrets(_ text: String) -> String {
        guard !patterns.isEmpty else { return text }
        var text = text
        let (scanned, simple): (String?, Bool) = text.withUTF8 { (scan($0), Redactor.isSimple($0)) }
        var out = scanned ?? text
        if !simple || !secretsAreSimple {
            for secret in secrets where out.contains(secret) { out = out.replacingOccurrences(of: secret, with: Redactor.mask) }
        }
        return out
    }

    /// The bytes with every match masked, or `nil` when nothing matched.
    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        var cursor = 0
        var position = 0
        while position < bytes.count {
            guard startBytes[Int(bytes[position])] else {
                position += 1
                continue
            }
            var end = -1
            let byte = bytes[position]
            if byte < 0x80, !EncodedText.mayStartEscape(byte) {
                end = longestMatch(EncodedText.Decoded(scalar: UInt32(byte), end: position + 1), in: bytes)
            } else {
                if let literal = EncodedText.literal(at: position, in: bytes) { end = max(end, longestMatch(literal, in: bytes)) }
                if let escaped = EncodedText.escaped(at: position, in: bytes) { end = max(end, longestMatch(escaped, in: bytes)) }
            }
            guard end > position else {
                position += 1
                continue
            }
            if out.isEmpty { out.reserveCapacity(bytes.count + 16) }
            out.append(contentsOf: bytes[cursor..<position])
            out.append(contentsOf: Redactor.maskBytes)
            cursor = end
            position = end
        }
        guard cursor > 0 else { return nil }
        out.append(contentsOf: bytes[cursor...])
        return String(decoding: out, as: UTF8.self)
    }

    /// The end of the longest pattern whose first scalar is `first` and whose rest follows it, or -1.
    private func longestMatch(_ first: EncodedText.Decoded, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let candidates = first.scalar < 128 ? asciiFirst[Int(first.scalar)] : otherFirst[first.scalar] ?? []
        var best = -1
        for index in candidates {
            if let end = EncodedText.match(patterns[index], from: first.end, in: bytes) { best = max(best, end) }
        }
        return best
    }

    /// Bytes that start an escape ``EncodedText`` reads: `%`, `\` and `&`.
    private static let escapeStartBytes: [Bool] = (0..<256).map { $0 == 0x25 || $0 == 0x5C || $0 == 0x26 }

    /// ``mask`` as UTF-8 bytes.
    static let maskBytes = Array(mask.utf8)

    /// Whether every byte is ASCII.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }

    /// Whether the text is ASCII apart from U+2022 BULLET (the character of ``mask``) and the letters and signs of
    /// Latin-1 (U+00A1–U+00FF) other than U+00DF ß.
    ///
    /// Secrets are replaced by the mask *before* the field pass, so a signed request body is no longer pure
    /// ASCII when it gets there; and providers answer in Spanish (PlacetoPay's "La petición se ha procesado"), which
    /// sent every answer through Foundation and ICU (the runner's largest cost, docs/benchmarks.md). These
    /// characters are safe to treat as opaque everywhere the fast paths care: none is whitespace or a line
    /// terminator (U+0085 and U+00A0 are left out), none is a combining mark or canonically equivalent to anything
    /// containing ASCII alone, none case-folds to ASCII (ß, which folds to "ss", is left out), and the only bytes the
    /// scanners act on are ASCII, which never occur inside their UTF-8 forms (C2 A1–C3 BF, E2 80 A2).
    static func isSimple(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(bytes) { return true }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
            } else if index + 1 < bytes.count,
                (byte == 0xC2 && bytes[index + 1] >= 0xA1 && bytes[index + 1] <= 0xBF)
                    || (byte == 0xC3 && bytes[index + 1] >= 0x80 && bytes[index + 1] <= 0xBF && bytes[index + 1] != 0x9F)
            {
                index += 2
            } else if index + 2 < bytes.count, byte == 0xE2, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA2 {
                index += 3
            } else {
                return false
            }
        }
        return true
    }

}
