package import Foundation

/// One request received by the mock host, as kept in its journal and handed out by `GET /__paycheck/journal`: what
/// was asked, and for a merchant's request what the mock answered, which operation of which provider served it, the
/// payment it created and what the provider's rules found. The mock writes it while it serves the request; the runner
/// reads it (``json`` / ``init(json:)`` across the control API) and never works any of it out again.
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

        /// `[[name, value], …]`, as the journal writes header lines.
        package static func json(_ headers: [Header]) -> Value {
            .array(headers.map { .array([.string($0.name), .string($0.value)]) })
        }

        /// Header lines written by ``json(_:)``; pairs of another shape are left out.
        package static func pairs(_ value: Value?) -> [Header] {
            (value?.arrayValue ?? []).compactMap { pair in
                guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue, let value = items[1].stringValue else { return nil }
                return Header(name: name, value: value)
            }
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

    /// What the mock did with a merchant's request: the provider and operation that served it and, for an operation
    /// that creates a payment (``ProviderOperation/createdPayment``) answered 2xx, the payment's id with the amount
    /// and currency the request asked for where it says them in the clear.
    package struct Served: Sendable, Hashable {
        /// The provider id, e.g. `mollie`.
        package var provider: String
        /// The operation's name, e.g. `createPayment`; `nil` for a path none of the provider's operations declares.
        package var operation: String?
        /// The id of the payment (or session) the request created.
        package var payment: String?
        /// The amount asked for, as a number (`"10.00"` reads as 10).
        package var amount: Double?
        /// The currency asked for.
        package var currency: String?

        /// Creates a record.
        package init(provider: String, operation: String?, payment: String? = nil, amount: Double? = nil, currency: String? = nil) {
            self.provider = provider
            self.operation = operation
            self.payment = payment
            self.amount = amount
            self.currency = currency
        }

        /// The record as JSON.
        package var json: Value {
            var object: [String: Value] = ["provider": .string(self.provider), "operation": self.operation.map(Value.string) ?? .null]
            if let payment { object["payment"] = .string(payment) }
            if let amount { object["amount"] = Value(number: amount) }
            if let currency { object["currency"] = .string(currency) }
            return .object(object)
        }

        /// Reads a record written by ``json``.
        package init?(json: Value) {
            guard let provider = json["provider"]?.stringValue else { return nil }
            self.init(
                provider: provider, operation: json["operation"]?.stringValue, payment: json["payment"]?.stringValue,
                amount: json["amount"]?.number, currency: json["currency"]?.stringValue)
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
    /// What the mock did with a merchant's request; `nil` for any other, and for a path under no provider.
    package var served: Served?

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
    /// The record as `GET /__paycheck/journal` writes it.
    package var json: Value {
        var object: [String: Value] = [
            "sequence": .int(self.sequence),
            "scope": .string(self.scope),
            "origin": .string(self.origin.rawValue),
            "method": .string(self.method),
            "path": .string(self.path),
            "query": .string(self.query),
            "headers": Header.json(self.headers),
            "body": .string(self.body),
            "bodyTruncated": .bool(self.bodyTruncated),
            "receivedAt": .string(ISOTimestamp.format(self.receivedAt)),
        ]
        if self.origin == .merchant { object["findings"] = .array(self.findings.map(\.json)) }
        if let served { object["served"] = served.json }
        if let answer {
            object["answer"] = .object([
                "status": .int(answer.status),
                "contentType": answer.contentType.map(Value.string) ?? .null,
                "body": .string(answer.body),
            ])
        }
        return .object(object)
    }

    /// Reads a record written by ``json``; `nil` when a field is missing or of the wrong type.
    package init?(json: Value) {
        guard let method = json["method"]?.stringValue, let path = json["path"]?.stringValue,
            let receivedAt = json["receivedAt"]?.stringValue.flatMap({ ISOTimestamp.parse($0) })
        else { return nil }
        self.init(
            method: method, path: path, query: json["query"]?.stringValue ?? "", headers: Header.pairs(json["headers"]), body: [],
            receivedAt: receivedAt)
        self.body = json["body"]?.stringValue ?? ""
        self.bodyTruncated = json["bodyTruncated"]?.boolValue ?? false
        self.sequence = json["sequence"]?.wholeNumber ?? 0
        self.scope = json["scope"]?.stringValue ?? "default"
        self.origin = json["origin"]?.stringValue.flatMap(Origin.init(rawValue:)) ?? .direct
        self.findings = (json["findings"]?.arrayValue ?? []).compactMap(Finding.init(json:))
        self.served = json["served"].flatMap(Served.init(json:))
        if let answer = json["answer"]?.objectValue, let status = answer["status"]?.wholeNumber {
            self.answer = Answer(status: status, contentType: answer["contentType"]?.stringValue, body: answer["body"]?.stringValue ?? "")
        }
    }
}

/// One page of the mock's journal, as `GET /__paycheck/journal` answers it: the records the query asked for, oldest
/// first, and the number the next record will get (a cursor for the next page).
package struct JournalPage: Sendable, Hashable {
    /// The records.
    package var requests: [RecordedRequest]
    /// The journal number of the next record.
    package var next: Int

    /// Creates a page.
    package init(requests: [RecordedRequest], next: Int) {
        self.requests = requests
        self.next = next
    }

    /// The page as JSON.
    package var json: Value {
        .object(["count": .int(self.requests.count), "next": .int(self.next), "requests": .array(self.requests.map(\.json))])
    }

    /// Reads a page written by ``json``; `nil` without `next`. A record that cannot be read is left out.
    package init?(json: Value) {
        guard let next = json["next"]?.wholeNumber else { return nil }
        self.init(requests: (json["requests"]?.arrayValue ?? []).compactMap(RecordedRequest.init(json:)), next: next)
    }
}
