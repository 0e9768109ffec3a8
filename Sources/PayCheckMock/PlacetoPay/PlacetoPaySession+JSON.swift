import Foundation
import PayCheckCore

extension PlacetoPaySession {
    /// The query response body (providers.md §1.5): `requestId`, `status`, `request`, `payment` (newest first, or
    /// `null` when there is none), `subscription` (or `null`).
    ///
    /// Newest first: the official Python SDK's fixture `information_payment_response_successful.json` lists the
    /// later approved transaction before the earlier rejected one.
    var queryJSON: Value {
        .object([
            "requestId": .int(self.requestId),
            "status": self.status.json(locale: self.locale),
            "request": self.requestEcho,
            "payment": self.transactions.isEmpty
                ? .null : .array(self.transactions.reversed().map { $0.json(locale: self.locale) }),
            "subscription": self.subscription?.json ?? .null,
        ])
    }

    /// The echo of the create request without `auth` (§1.5), plus `fields` with a `_processUrl_` entry.
    ///
    /// Booleans are normalised to JSON booleans (the Python client sends `"true"`/`"false"` strings), `locale`
    /// and a defaulted `expiration` filled with the effective values, `null` members left out (so no string field is ever
    /// null); every other member is echoed as parsed. Keys are written sorted (key order is not significant,
    /// providers.md §1.1).
    var requestEcho: Value {
        var members = self.request.echo.filter { $0.value != .null }
        members["locale"] = .string(self.locale)
        if let payment = members["payment"] {
            members["payment"] = Self.paymentEcho(payment)
        }
        var fields = members.removeValue(forKey: "fields")?.arrayValue ?? []
        if !self.isCollect {
            fields.append(
                .object([
                    "keyword": .string("_processUrl_"), "value": .string(self.processUrl),
                    "displayOn": .string("none"),
                ]))
        }
        if !fields.isEmpty { members["fields"] = .array(fields) }
        // A sent `expiration` is echoed as sent; a defaulted one in UTC with milliseconds, as the docs' query
        // examples show it (`2023-03-09T23:09:14.946Z`, OpenAPI and session reference page).
        if self.request.expiration == nil {
            members["expiration"] = .string(ISOTimestamp.format(self.expiresAt, fraction: .always))
        }
        for key in ["captureAddress", "skipResult", "noBuyerFill"] {
            if let value = members[key] { members[key] = Self.boolEcho(value) }
        }
        return .object(members)
    }

    /// The `payment` echo: `null` members dropped, `amount.total` a number, `allowPartial` and `subscribe`
    /// always present as booleans.
    private static func paymentEcho(_ payment: Value) -> Value {
        guard var members = payment.objectValue?.filter({ $0.value != .null }) else { return payment }
        if let amount = members["amount"] {
            members["amount"] = Self.amountEcho(amount)
        }
        for key in ["allowPartial", "subscribe"] {
            members[key] = .bool(members[key]?.boolValue ?? false)
        }
        return .object(members)
    }

    /// The `amount` echo with `total` as a JSON number even when it was sent as a numeric string; a number
    /// keeps its form (`165000` stays an integer).
    private static func amountEcho(_ amount: Value) -> Value {
        guard var members = amount.objectValue else { return amount }
        if case .string = members["total"], let total = members["total"]?.numberValue {
            members["total"] = Value(number: total)
        }
        return .object(members)
    }

    /// A boolean member echoed as a JSON boolean when it reads as one, else as received.
    private static func boolEcho(_ value: Value) -> Value {
        value.boolValue.map { .bool($0) } ?? value
    }
}
