import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// One Mollie payment of the mock (providers.md §4.2, §4.12 P1-4, 2.1).
struct MolliePayment: Sendable {
    let id: String
    let createdAt: Date
    var expiresAt: Date
    let currency: String
    let value: Decimal
    var description: String
    var redirectUrl: String?
    var cancelUrl: String?
    var webhookUrl: String?
    var method: String?
    var metadata: Value
    var locale: String?
    var status = MolliePaymentStatus.open
    var statusChangedAt: [MolliePaymentStatus: Date] = [:]
    var refunded: Decimal = 0
    var refunds: [MollieRefund] = []

    /// Final statuses never change again (§4.4).
    var isFinal: Bool { status.isFinal }

    /// `isCancelable` (§4.12 2.1): true only for an open bank transfer, and for authorized payments.
    var isCancelable: Bool { (status == .open && method == "banktransfer") || status == .authorized }

    /// The payment as JSON, every link absolute on `base` (the scheme and host the client used, §4.12 P1-2).
    func json(base: String) -> Value {
        var members: [String: Value] = [
            "resource": "payment", "id": .string(id), "mode": "test", "createdAt": .string(MollieFormat.date(createdAt)),
            "amount": MollieFormat.amount(value, currency), "description": .string(description), "status": .string(status.rawValue),
            "profileId": "pfl_PayCheck01", "sequenceType": "oneoff", "method": method.map { .string($0) } ?? .null,
            "metadata": metadata,
        ]
        if let redirectUrl { members["redirectUrl"] = .string(redirectUrl) }
        if let cancelUrl { members["cancelUrl"] = .string(cancelUrl) }
        if let webhookUrl { members["webhookUrl"] = .string(webhookUrl) }
        if let locale { members["locale"] = .string(locale) }
        if !isFinal {
            members["isCancelable"] = .bool(isCancelable)
            if status == .open { members["expiresAt"] = .string(MollieFormat.date(expiresAt)) }
        }
        for (state, key) in [(MolliePaymentStatus.paid, "paidAt"), (.canceled, "canceledAt"), (.expired, "expiredAt"), (.failed, "failedAt"), (.authorized, "authorizedAt")] {
            if let date = statusChangedAt[state] { members[key] = .string(MollieFormat.date(date)) }
        }
        if status == .paid {
            members["amountRefunded"] = MollieFormat.amount(refunded, currency)
            members["amountRemaining"] = MollieFormat.amount(value - refunded, currency)
        }
        var links: [String: Value] = [
            "self": MollieFormat.link("\(base)/v2/payments/\(id)"),
            "dashboard": MollieFormat.link("\(base)/dashboard/org_1/payments/\(id)", type: "text/html"),
        ]
        if !isFinal && status != .authorized {
            links["checkout"] = MollieFormat.link("\(base)/checkout/select-method/\(id.dropFirst(3))", type: "text/html")
        }
        if status == .paid {
            links["changePaymentState"] = MollieFormat.link("\(base)/checkout/test-mode/\(id.dropFirst(3))", type: "text/html")
        }
        if !refunds.isEmpty { links["refunds"] = MollieFormat.link("\(base)/v2/payments/\(id)/refunds") }
        members["_links"] = .object(links)
        return .object(members)
    }
}

/// A refund (§4.12 P1-5, 2.6).
struct MollieRefund: Sendable {
    let id: String
    let paymentId: String
    let value: Decimal
    let currency: String
    let description: String
    let metadata: Value
    let createdAt: Date
    /// `pending` until canceled (the mock's refunds do not move on by themselves; §4.12 2.6 lists the statuses).
    var status = "pending"

    func json(base: String) -> Value {
        .object([
            "resource": "refund", "id": .string(id), "mode": "test", "amount": MollieFormat.amount(value, currency),
            "status": .string(status), "createdAt": .string(MollieFormat.date(createdAt)), "description": .string(description),
            "metadata": metadata, "paymentId": .string(paymentId),
            "_links": .object([
                "self": MollieFormat.link("\(base)/v2/payments/\(paymentId)/refunds/\(id)"),
                "payment": MollieFormat.link("\(base)/v2/payments/\(paymentId)"),
                "documentation": MollieFormat.link("https://docs.mollie.com/reference/v2/refunds-api/get-payment-refund", type: "text/html"),
            ]),
        ])
    }
}

/// Mollie's formats.
enum MollieFormat {
    /// ISO 8601 with `+00:00` and whole seconds (§4.12 2.1).
    static func date(_ date: Date) -> String { PayCheckCore.ISOTimestamp.format(date, timeZone: TimeZone(secondsFromGMT: 0)!) }

    /// `{currency, value}` with the currency's decimals as a string (§4.12 4.10): 2, or 0 for JPY.
    static func amount(_ value: Decimal, _ currency: String) -> Value {
        .object(["currency": .string(currency), "value": .string(text(value, currency))])
    }

    static func decimals(_ currency: String) -> Int { ["JPY", "ISK", "HUF"].contains(currency) ? 0 : 2 }

    /// The amount rounded half-up to the currency's decimals, written with `.` and exactly those decimals. Decimal's
    /// own description is plain digits with a `.` (no grouping, no exponent), so only the fraction is padded; a
    /// `NumberFormatter` made per amount was a third of the mock's CPU under load (docs/benchmarks.md).
    static func text(_ value: Decimal, _ currency: String) -> String {
        let places = decimals(currency)
        var rounded = Decimal()
        var copy = value
        NSDecimalRound(&rounded, &copy, places, .plain)
        let text = rounded.description
        guard places > 0, rounded.isFinite else { return text }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? parts[1] : ""
        return parts[0] + "." + fraction + String(repeating: "0", count: max(0, places - fraction.count))
    }

    static func link(_ href: String, type: String = "application/hal+json") -> Value {
        .object(["href": .string(href), "type": .string(type)])
    }
}

/// A Mollie error `{status, title, detail, field?, _links.documentation}` as `application/hal+json` (§4.8, §4.12 P1-7).
struct MollieFailure: Error, HTTPResponseError, CustomStringConvertible {
    var code: Int
    var detail: String
    var field: String?
    var headers: HTTPFields = [:]

    var status: HTTPResponse.Status { HTTPResponse.Status(code: code) }

    static let titles = [
        400: "Bad Request", 401: "Unauthorized Request", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
        422: "Unprocessable Entity", 429: "Too Many Requests", 503: "Service Unavailable",
    ]

    var body: Value {
        var members: [String: Value] = [
            "status": .int(code), "title": .string(Self.titles[code] ?? "Error"), "detail": .string(detail),
            "_links": .object([
                "documentation": MollieFormat.link(
                    code == 401 ? "https://docs.mollie.com/overview/authentication" : "https://docs.mollie.com/overview/handling-errors",
                    type: "text/html")
            ]),
        ]
        if let field { members["field"] = .string(field) }
        return .object(members)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = MollieResponse.hal(body, status: code)
        for field in headers { response.headers.append(field) }
        return response
    }

    var description: String { "\(code) \(detail)" }

    static func invalid(_ detail: String, field: String?) -> Self { Self(code: 422, detail: detail, field: field) }
}

/// `application/hal+json` answers (§4.12 P1-1).
enum MollieResponse {
    static func hal(_ value: Value, status: Int = 200) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/hal+json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: JSONText.encode(value))))
    }
}
