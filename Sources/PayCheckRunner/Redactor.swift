import Foundation

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
        for secret in secrets where out.contains(secret) {
            out = out.replacingOccurrences(of: secret, with: Redactor.mask)
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
        guard let pattern = fieldPattern else { return text }
        let lowered = text.lowercased()
        guard sensitiveNames.contains(where: { lowered.contains($0) }) else { return text }
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

    nonisolated(unsafe) private static let cardPattern = try? NSRegularExpression(pattern: "(?<![0-9])[0-9]{13,19}(?![0-9])")

    /// Masks digit runs that are card numbers (Luhn-valid, 13–19 digits), keeping the last four.
    static func maskCardNumbers(_ text: String) -> String {
        guard let pattern = cardPattern, text.utf8.count >= 13 else { return text }
        var digitRun = 0
        var longest = 0
        for byte in text.utf8 {
            if byte >= 48 && byte <= 57 { digitRun += 1; longest = max(longest, digitRun) } else { digitRun = 0 }
        }
        guard longest >= 13 else { return text }
        var out = ""
        var cursor = text.startIndex
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let r = Range(match.range, in: text) else { continue }
            let digits = String(text[r])
            guard luhn(digits) else { continue }
            out += text[cursor..<r.lowerBound]
            out += String(repeating: "•", count: digits.count - 4) + digits.suffix(4)
            cursor = r.upperBound
        }
        out += text[cursor...]
        return out
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
