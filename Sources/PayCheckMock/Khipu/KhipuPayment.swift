import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// One khipu payment of the mock (providers.md §2.4, §2.5, §2.12 A7).
struct KhipuPayment: Sendable {
    /// 12 lower-case alphanumerics, e.g. `gqzdy6chjne9`.
    let id: String
    /// `2.0` or `3.0`: the API it was created through (its default notification API, §2.7).
    let apiVersion: String
    /// The validated create fields, as strings keyed by their names.
    let fields: [String: String]
    /// `amount` as a number.
    let amount: Double
    /// When it was created, and when it expires (mock clock).
    let createdAt: Date
    let expiresAt: Date
    /// The 64-hex notification token of API 1.3.
    let notificationToken: String
    /// Where the payer's pages are: the mock's own host and scope, then `/khipu` (khipu's are on khipu.com; the mock
    /// serves them so that a browser, an app's web view or a UI test can follow `payment_url`, docs/providers/khipu.md).
    var pageBase = "https://khipu.com"
    /// `pending`, `verifying` or `done`.
    var status = KhipuPaymentStatus.pending
    /// `pending`, `normal`, `marked-paid-by-receiver`, `rejected-by-payer`, `marked-as-abuse`, `reversed`,
    /// `partially-refunded`, `fully-refunded`.
    var statusDetail = KhipuStatusDetail.pending
    /// When verification ends and the payment is reconciled (set when the payer paid).
    var conciliatesAt: Date?
    /// When it was reconciled.
    var conciliatedAt: Date?
    /// Refunded so far.
    var refunded = 0.0
    /// The refund rows GET shows, oldest first: `{id, status, amount, currency, request_date}` (§2.12 B4).
    var refunds: [Value] = []
    /// The DemoBank the payer used.
    var bank = ""
    /// Whether the merchant confirmed it (`confirm`, a contracted feature).
    var confirmed = false

    /// `notify_api_version`: as requested, else the API it was created through (§2.7).
    var notifyAPIVersion: String { fields["notify_api_version"].flatMap { $0.isEmpty ? nil : $0 } ?? (apiVersion == "3.0" ? "3.0" : "1.3") }

    /// The documented URLs (§2.4).
    var urls: [String: Value] {
        [
            "payment_id": .string(id),
            "payment_url": .string("\(pageBase)/payment/info/\(id)"),
            "simplified_transfer_url": .string("\(pageBase)/payment/simplified/\(id)"),
            "transfer_url": .string("\(pageBase)/payment/manual/\(id)"),
            "app_url": .string("khipu:///pos/\(id)"),
            "ready_for_terminal": .bool(false),
        ]
    }

    /// The payment object of GET (and of 3.0 notifications): every key of §2.12 A7, strings defaulting to `""`,
    /// `attachment_urls` to `[]`, booleans to `false`; `conciliation_date` always an ISO date-time (a choice before
    /// reconciliation: the creation time), `expires_date` never null; `amount` a JSON number, `receiver_id` an
    /// integer (§2.12 A11).
    func json(receiverId: Int) -> Value {
        var members = self.urls
        func text(_ key: String) -> Value { .string(fields[key] ?? "") }
        for key in [
            "subject", "currency", "body", "picture_url", "return_url", "cancel_url", "notify_url", "transaction_id", "custom",
            "responsible_user_email", "payer_name", "payer_email", "bank_id",
        ] {
            members[key] = text(key)
        }
        members["notification_token"] = .string(notificationToken)
        members["receiver_id"] = .int(receiverId)
        members["conciliation_date"] = .string(ISOTimestamp.format(conciliatedAt ?? createdAt, fraction: .always))
        members["amount"] = Value(number: amount)
        members["status"] = .string(status.rawValue)
        members["status_detail"] = .string(statusDetail.rawValue)
        members["receipt_url"] = .string(status == .done ? "\(pageBase)/payment/receipt/\(id)" : "")
        members["notify_api_version"] = .string(notifyAPIVersion)
        members["expires_date"] = .string(ISOTimestamp.format(expiresAt, fraction: .always))
        members["attachment_urls"] = .array([])
        members["bank"] = .string(bank)
        members["personal_identifier"] = .string(bank.isEmpty ? "" : "11.111.111-1")
        members["bank_account_number"] = .string(bank.isEmpty ? "" : "1111111111")
        members["out_of_date_conciliation"] = .bool(false)
        members["send_reminders"] = .bool(Self.flag(fields["send_reminders"]))
        members["send_email"] = .bool(Self.flag(fields["send_email"]))
        members["payment_method"] = .string(bank.isEmpty ? "not_available" : "simplified_transfer")
        members["funds_source"] = .string(bank.isEmpty ? "" : "debit")
        // `refunds[]` and `total_refunded` (a 4-decimal string) appear only once the payment has refunds (§2.12 A11, B4).
        if apiVersion == "3.0", !refunds.isEmpty {
            members["refunds"] = .array(refunds)
            members["total_refunded"] = .string(String(format: "%.4f", refunded))
        }
        return .object(members)
    }

    /// A boolean as the clients send it: `true`/`1`/`True`.
    static func flag(_ text: String?) -> Bool {
        guard let text else { return false }
        return ["true", "1"].contains(text.lowercased())
    }
}

/// A khipu error response `{status, message, errors?}` (providers.md §2.6, §2.12 A6, A8): `status` is the HTTP code.
struct KhipuFailure: Error, HTTPResponseError, CustomStringConvertible {
    var code: Int
    var message: String
    var errors: [(field: String, message: String)] = []

    var status: HTTPResponse.Status { HTTPResponse.Status(code: code) }

    var body: Value {
        var members: [String: Value] = ["status": .int(code), "message": .string(message)]
        if !errors.isEmpty {
            members["errors"] = .array(errors.map { .object(["field": .string($0.field), "message": .string($0.message)]) })
        }
        return .object(members)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        MockResponse.json(body, status: status)
    }

    var description: String { "\(code) \(message)" }

    /// 400 "Error de validación" naming one field (§2.12 A8).
    static func invalid(_ field: String, _ message: String) -> Self {
        Self(code: 400, message: "Error de validación", errors: [(field, message)])
    }
}
