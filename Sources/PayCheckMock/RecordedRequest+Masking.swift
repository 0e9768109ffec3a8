import PayCheckCore

extension RecordedRequest {
    /// What a masked secret reads as in the journal.
    static let maskedValue = "[redacted]"

    /// This record as the journal hands it out: the fields named in `secretNames` (lower case) masked
    /// (``masking(_:)``), then every card number cut to its last four digits (``maskingCardNumbers()``).
    func masked(_ secretNames: Set<String>) -> RecordedRequest {
        (secretNames.isEmpty ? self : self.masking(secretNames)).maskingCardNumbers()
    }

    /// This record with every card number in its query, header values and body masked to the last four digits, by
    /// the rule the runner's reports use (``CardNumberMask``). Applied after ``masking(_:)``, which parses the body.
    func maskingCardNumbers() -> RecordedRequest {
        var masked = self
        masked.query = CardNumberMask.apply(self.query)
        masked.headers = self.headers.map { Header(name: $0.name, value: CardNumberMask.apply($0.value)) }
        masked.body = CardNumberMask.apply(self.body)
        masked.answer?.body = CardNumberMask.apply(self.answer?.body ?? "")
        return masked
    }

    /// This record with the fields named in `secretNames` (lower-cased) masked: header values, query and form
    /// parameters, and JSON members at any depth. A body that is neither JSON nor a form is kept as received.
    func masking(_ secretNames: Set<String>) -> RecordedRequest {
        var masked = self
        masked.headers = self.headers.map { header in
            secretNames.contains(header.name.lowercased()) ? Header(name: header.name, value: Self.maskedValue) : header
        }
        masked.query = Self.maskForm(self.query, secretNames)
        let contentType = self.header("Content-Type")?.lowercased() ?? ""
        if contentType.contains("json") || self.body.first == "{" {
            if Self.mayName(self.body, secretNames), let value = JSONText.parse(self.body) {
                var changed = false
                let maskedValue = Self.maskJSON(value, secretNames, &changed)
                if changed { masked.body = JSONText.encode(maskedValue) }
            }
        } else if contentType.contains("x-www-form-urlencoded") {
            masked.body = Self.maskForm(self.body, secretNames)
        }
        if let answer = self.answer, Self.mayName(answer.body, secretNames), let value = JSONText.parse(answer.body) {
            var changed = false
            let maskedValue = Self.maskJSON(value, secretNames, &changed)
            if changed { masked.answer?.body = JSONText.encode(maskedValue) }
        }
        return masked
    }

    /// Whether a JSON text can have a member named in `names` (lower case): one of them occurs in it, ASCII
    /// case-insensitively, or the text has an escape or a non-ASCII byte that could spell one (a `\u` escape, or the
    /// Kelvin sign, which lower-cases to `k`). Every request and answer is recorded, and parsing each one again
    /// only to find nothing to mask was a tenth of the mock's CPU under load (docs/benchmarks.md).
    static func mayName(_ text: String, _ names: Set<String>) -> Bool {
        guard !text.utf8.contains(UInt8(ascii: "\\")) else { return true }
        return ByteSearch.containsIgnoringASCIICase(text, anyOf: names.map { Array($0.utf8) }) ?? true
    }

    private static func maskJSON(_ value: Value, _ names: Set<String>, _ changed: inout Bool) -> Value {
        switch value {
        case .object(let members):
            var out = members
            for (key, member) in members {
                if names.contains(key.lowercased()) {
                    out[key] = .string(maskedValue)
                    if member != .string(maskedValue) { changed = true }
                } else {
                    out[key] = maskJSON(member, names, &changed)
                }
            }
            return .object(out)
        case .array(let items):
            return .array(items.map { maskJSON($0, names, &changed) })
        default:
            return value
        }
    }

    private static func maskForm(_ text: String, _ names: Set<String>) -> String {
        guard !text.isEmpty else { return text }
        let pairs = FormText.decodePairs(text)
        guard pairs.contains(where: { names.contains($0.name.lowercased()) }) else { return text }
        return FormText.encode(pairs.map { (name: $0.name, value: names.contains($0.name.lowercased()) ? maskedValue : $0.value) })
    }
}
