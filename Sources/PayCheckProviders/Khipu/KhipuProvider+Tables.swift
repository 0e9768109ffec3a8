import PayCheckCore

extension KhipuProvider {
    /// `status` / `status_detail` → canonical outcomes (providers.md §2.9, §2.12 B3). A row with a detail wins over
    /// the bare status.
    package static let mapping: OutcomeMapping = {
        typealias S = KhipuPaymentStatus
        typealias D = KhipuStatusDetail
        return OutcomeMapping([
            .init(S.done, reason: D.normal, .succeeded, "verified and paid by a standard method (§2.5)"),
            .init(S.done, reason: D.markedPaidByReceiver, .succeeded, "the merchant marked it paid by other means (§2.5)"),
            .init(S.done, reason: D.partiallyRefunded, .succeeded, "paid, part of it refunded (§2.12 B3)"),
            .init(S.done, reason: D.fullyRefunded, .canceled, "paid, then wholly refunded (§2.12 B3)"),
            .init(S.done, reason: D.reversed, .canceled, "the merchant reversed it; money returned (§2.5)"),
            .init(S.done, reason: D.rejectedByPayer, .declined, "the payer declared they will not pay (§2.5)"),
            .init(S.done, reason: D.markedAsAbuse, .declined, "the payer will not pay and marked it unsolicited (§2.5)"),
            .init(S.verifying, .pending, "the transfer is being verified (§2.5); not paid yet"),
            .init(S.pending, .pending, "the payer has not paid yet; they may still (§2.5, §2.9)"),
        ])
    }()

    /// Error bodies `{status, message, errors?}` by their `status` (= the HTTP code; §2.6, §2.12 A6, A8, B14).
    package static let catalog = ErrorCatalog([
        .init(
            "400", .P, "invalid data: errors[{field, message}] name the fields (also an unknown or non-deletable payment)",
            httpStatus: 400, source: "providers.md §2.6, §2.12 A6, A8"),
        .init("401", .A, "API 3.0: missing or wrong x-api-key", httpStatus: 401, source: "providers.md §2.12 B14"),
        .init(
            "403", .A, "API 2.0: authorization error (bad signature, unknown receiver, missing Authorization)",
            httpStatus: 403, source: "providers.md §2.6, §2.12 A6"),
        .init("404", .P, "API 3.0: no such payment", httpStatus: 404, source: "providers.md §2.6 (3.0 lists 404)"),
        .init("503", .S, "operation error: the service could not process the request", httpStatus: 503, source: "providers.md §2.6"),
    ])
}

/// The `payer:` and `mock:` actions the khipu mock serves.
///
/// | Action | Does |
/// |---|---|
/// | `payer: pay` `{payment_id, coordinates?}` | DemoBank (§2.8): coordinates `11 22 33` (default) → the transfer is made, `verifying`; `99 99 99` → bank error, the payment stays `pending` |
/// | `payer: reject` `{payment_id, abuse?}` | the payer declares they will not pay: `done`/`rejected-by-payer` (or `marked-as-abuse`) |
/// | `mock: conciliate` `{payment_id}` | khipu finishes verifying a `verifying` payment now: `done`/`normal`, notification sent |
/// | `mock: markPaid` `{payment_id}` | the merchant marks a pending payment paid by other means in khipu's site: `done`/`marked-paid-by-receiver` |
/// | `mock: account` `{conciliationDelay?, notificationRetries?, signNotificationsWith?, available?, refundWallet?, refundWalletBalance?, maxAmountDigits?, notifyRejections?}` | the account's settings (`notifyRejections: false`: a payer's rejection is not notified on API 3.0); `available: false` makes every API call answer 503 (§2.6); `refundWallet: false` an account without the refund wallet (§2.12 B4) |
/// | `mock: forge` `{payment_id, url?}` | an attacker's API 3.0 notification: the payment claimed `done/normal`, signed with another key, sent once |
/// | `mock: notifications` `{payment_id?}` | what was sent to `notify_url`, with the answers |
/// | `mock: refundStatus` `{payment_id, refund_id, status}` | a refund row moves `pending` → `authorized` → `paid` (§2.12 B4) |
package enum KhipuControlAction {
    /// Every action.
    package static let all: [ControlAction] = [
        ControlAction(.payer, "pay", parameters: ["payment_id", "coordinates"], required: ["payment_id"]),
        ControlAction(.payer, "reject", parameters: ["payment_id", "abuse"], required: ["payment_id"]),
        ControlAction(.mock, "conciliate", parameters: ["payment_id"], required: ["payment_id"]),
        ControlAction(.mock, "markPaid", parameters: ["payment_id"], required: ["payment_id"]),
        ControlAction(.mock, "forge", parameters: ["payment_id", "url"], required: ["payment_id"], delivers: true),
        ControlAction(
            .mock, "account",
            parameters: [
                "conciliationDelay", "notificationRetries", "signNotificationsWith", "available", "refundWallet", "refundWalletBalance", "maxAmountDigits", "notifyRejections",
            ], runsAlone: true),
        ControlAction(.mock, "notifications", parameters: ["payment_id"]),
        ControlAction(.mock, "refundStatus", parameters: ["payment_id", "refund_id", "status"], required: ["payment_id", "refund_id", "status"]),
    ]
}

/// The seed's app hand-off as `deeplink:` steps (providers.md §2.8, §2.12 B12 and the decisions of §2.12).
enum KhipuHandOff {
    /// The App Store page the demo opens when the khipu app is missing (§2.12 B12).
    static let storeURL = "itms-apps://itunes.apple.com/cl/app/khipu-terminal-de-pagos/id590942451"

    static func perform(_ name: String, parameters: Value) throws -> Observation {
        switch name {
        case "open":
            // The merchant app opens `app_url` (`khipu:///pos/<id>`); without the khipu app it keeps the URL and sends
            // the user to the store, to resume on the `khipuinstalled://` callback.
            guard let url = parameters["app_url"]?.stringValue, url.hasPrefix("khipu:///pos/") else {
                throw ProviderError.invalidStep("'deeplink: open' needs 'with: { app_url }', the payment's khipu:///pos/<id> URL")
            }
            if parameters["installed"]?.boolValue == false {
                return KhipuProvider.local(["opened": .string(storeURL), "pending_url": .string(url)], outcome: .pending)
            }
            return KhipuProvider.local(["opened": .string(url), "pending_url": .null], outcome: .pending)
        case "installed":
            guard let url = parameters["pending_url"]?.stringValue, !url.isEmpty else {
                throw ProviderError.invalidStep("'deeplink: installed' needs 'with: { pending_url }' kept by 'deeplink: open'")
            }
            return KhipuProvider.local(["opened": .string(url), "resumed": .bool(true)], outcome: .pending)
        case "callback":
            // The khipu app calls the merchant scheme back: the cancel_url (`…failure…`) means "not paid, the payer gave
            // up for now" (they can resume, the server stays pending); any other is "returned, verify with the server".
            guard let url = parameters["url"]?.stringValue else {
                throw ProviderError.invalidStep("'deeplink: callback' needs 'with: { url }', the URL the khipu app opened")
            }
            if url.contains("failure") {
                return KhipuProvider.local(["url": .string(url), "app": .string("not paid")], outcome: .canceled)
            }
            return KhipuProvider.local(["url": .string(url), "app": .string("returned: verify with the server")], outcome: .pending)
        default:
            throw ProviderError.invalidStep("khipu has no 'deeplink: \(name)' (use open, installed or callback)")
        }
    }
}

/// A khipu payment's `status` (providers.md §2.5, §2.9): the adapter's table and the mock share it.
package enum KhipuPaymentStatus: String, NativeState {
    case pending, verifying, done
}

/// A khipu payment's `status_detail` (providers.md §2.5, §2.12 B3), which narrows `done`.
package enum KhipuStatusDetail: String, NativeState {
    case pending, normal
    case markedPaidByReceiver = "marked-paid-by-receiver"
    case partiallyRefunded = "partially-refunded"
    case fullyRefunded = "fully-refunded"
    case reversed
    case rejectedByPayer = "rejected-by-payer"
    case markedAsAbuse = "marked-as-abuse"
}
