import Foundation

extension PlacetoPaySession {
    /// The query response body (providers.md §1.5): `requestId`, `status`, `request`, `payment` (newest first, or
    /// `null` when there is none), `subscription` (or `null`).
    ///
    /// Newest first: the official Python SDK's fixture `information_payment_response_successful.json` lists the
    /// later approved transaction before the earlier rejected one.
    var queryJSON: JSONText {
        .object([
            ("requestId", .int(self.requestId)),
            ("status", self.status.json),
            ("request", self.requestEcho),
            ("payment", self.transactions.isEmpty ? .null : .array(self.transactions.reversed().map(\.json))),
            ("subscription", self.subscription?.json ?? .null),
        ])
    }

    /// The echo of the create request without `auth` (§1.5), plus `fields` with a `_processUrl_` entry.
    ///
    /// Known members come first in the documented order, booleans normalised to JSON booleans (the Python client
    /// sends `"true"`/`"false"` strings), `locale` and `expiration` filled with the effective values, `null`
    /// members left out (so no string field is ever null); other members follow sorted by key.
    var requestEcho: JSONText {
        var members = self.request.echo.filter { $0.value != .null }
        var ordered: [(String, JSONText)] = [("locale", .string(self.locale))]
        members["locale"] = nil
        for key in ["payer", "buyer"] {
            if let value = members.removeValue(forKey: key) { ordered.append((key, value.text)) }
        }
        if let payment = members.removeValue(forKey: "payment") {
            ordered.append(("payment", Self.paymentEcho(payment)))
        }
        if let subscription = members.removeValue(forKey: "subscription") {
            ordered.append(("subscription", subscription.text))
        }
        var fields = members.removeValue(forKey: "fields")?.arrayValue?.map(\.text) ?? []
        if !self.isCollect {
            fields.append(
                .object([
                    ("keyword", .string("_processUrl_")), ("value", .string(self.processUrl)),
                    ("displayOn", .string("none")),
                ]))
        }
        if !fields.isEmpty { ordered.append(("fields", .array(fields))) }
        for key in ["returnUrl", "cancelUrl", "ipAddress", "userAgent"] {
            if let value = members.removeValue(forKey: key) { ordered.append((key, value.text)) }
        }
        ordered.append(("expiration", .string(PlacetoPayStatus.format(self.expiresAt))))
        members["expiration"] = nil
        for key in ["captureAddress", "skipResult", "noBuyerFill"] {
            if let value = members.removeValue(forKey: key) { ordered.append((key, Self.boolEcho(value))) }
        }
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            ordered.append((key, value.text))
        }
        return .object(ordered)
    }

    /// The `payment` echo: reference, description, amount, allowPartial, subscribe, then the rest sorted.
    private static func paymentEcho(_ payment: MockJSON) -> JSONText {
        guard var members = payment.objectValue?.filter({ $0.value != .null }) else { return payment.text }
        var ordered: [(String, JSONText)] = []
        for key in ["reference", "description"] {
            if let value = members.removeValue(forKey: key) { ordered.append((key, value.text)) }
        }
        if let amount = members.removeValue(forKey: "amount") {
            ordered.append(("amount", Self.amountEcho(amount)))
        }
        for key in ["allowPartial", "subscribe"] {
            let value = members.removeValue(forKey: key)
            ordered.append((key, .bool(value?.boolValue ?? false)))
        }
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            ordered.append((key, value.text))
        }
        return .object(ordered)
    }

    /// The `amount` echo with `total` as a JSON number even when it was sent as a numeric string.
    private static func amountEcho(_ amount: MockJSON) -> JSONText {
        guard var members = amount.objectValue else { return amount.text }
        if let total = members["total"]?.numberValue { members["total"] = .number(total) }
        var ordered: [(String, JSONText)] = []
        for key in ["currency", "total"] {
            if let value = members.removeValue(forKey: key) { ordered.append((key, value.text)) }
        }
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            ordered.append((key, value.text))
        }
        return .object(ordered)
    }

    /// A boolean member echoed as a JSON boolean when it reads as one, else as received.
    private static func boolEcho(_ value: MockJSON) -> JSONText {
        value.boolValue.map { .bool($0) } ?? value.text
    }
}
