package import Foundation
package import PayCheckCore

/// One request received by the mock host, as kept in the ``RequestJournal``.
package struct RecordedRequest: Sendable, Hashable {
    /// One header line, in the order and spelling it was received.
    package struct Header: Sendable, Hashable {
        /// The header name as received.
        package var name: String
        /// The header value.
        package var value: String

        /// Creates a header line.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Who sent a request, as far as the mock can tell.
    package enum Origin: String, Sendable, Hashable {
        /// A merchant's backend: the request came under the scoped root (``ControlAPI/scopedRoot(_:)``).
        case merchant
        /// Anyone else: the runner (which names its scope in a header), an SDK, curl.
        case direct
    }

    /// The mock's answer to a merchant's request, kept with it (evidence, and how a run links the payment its
    /// backend created to the case).
    package struct Answer: Sendable, Hashable {
        /// The HTTP status.
        package var status: Int
        /// The `Content-Type`, if any.
        package var contentType: String?
        /// The body as UTF-8, truncated to ``RecordedRequest/maximumBodyBytes``.
        package var body: String

        /// Creates an answer record.
        package init(status: Int, contentType: String?, body: String) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    /// The largest body, in bytes, that is kept; longer bodies are truncated.
    package static let maximumBodyBytes = 64 * 1024

    /// The journal's number for this record, increasing from 1 (0 until the journal records it).
    package var sequence = 0
    /// The clock scope the request was served in (`default` without one).
    package var scope = "default"
    /// Who sent it.
    package var origin = Origin.direct
    /// The mock's answer, kept for a merchant's requests.
    package var answer: Answer?
    /// What the provider's rules found wrong with a merchant's request (``MerchantRule``).
    package var findings: [Finding] = []

    /// The HTTP method, e.g. `POST`.
    package var method: String
    /// The request path without the query, e.g. `/placetopay/api/session`.
    package var path: String
    /// The raw query string without the leading `?`; empty when there was none.
    package var query: String
    /// Every header line in received order.
    package var headers: [Header]
    /// The body decoded as UTF-8 (invalid sequences repaired), truncated to ``maximumBodyBytes``.
    package var body: String
    /// Whether `body` was cut short.
    package var bodyTruncated: Bool
    /// The mock-clock time at which the request arrived.
    package var receivedAt: Date

    /// Creates a record; `body` is truncated to ``maximumBodyBytes`` bytes.
    package init(
        method: String,
        path: String,
        query: String,
        headers: [Header],
        body: [UInt8],
        receivedAt: Date
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        let truncated = body.count > Self.maximumBodyBytes
        self.body = String(decoding: truncated ? Array(body.prefix(Self.maximumBodyBytes)) : body, as: UTF8.self)
        self.bodyTruncated = truncated
        self.receivedAt = receivedAt
    }

    /// The value of the first header named `name` (case-insensitive), if any.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return self.headers.first { $0.name.lowercased() == lowered }?.value
    }
}

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
