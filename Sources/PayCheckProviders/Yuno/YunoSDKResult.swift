package import PayCheckCore

/// What the iOS SDK's `yunoPaymentResult(_:)` reports for a payment (providers.md §3.9, §3.13 P2-15/P2-16; the seed
/// guide's "Payment status validation"), given the backend's status and sub_status, the method, and whether the
/// payer closed the SDK's screen.
///
/// The six results are named as the compiled SDK names them (`succeeded, fail, processing, reject, internalError,
/// userCancelled`; the seed's `userCancell` is the same case), with an optional substatus and the Android spelling.
/// Documented pairs: Apple Pay closed before the PSP answered → `userCancelled` while the backend stays PENDING;
/// PIX QR closed → `processing` with `CLOSED_BY_USER` while the backend stays PENDING; QR expired → `EXPIRED` on both.
/// The rest follows §3.9's table [I]; where the reference is silent (which case carries `EXPIRED`, what the SDK says
/// about a merchant-canceled payment) the choice is listed in docs/providers/yuno.md.
package enum YunoSDKResult {
    /// The SDK result, its substatus and its canonical outcome (§3.9 "Mapping").
    package static func result(status: String?, subStatus: String?, method: String?, closedByUser: Bool) -> (result: String, substatus: String?, outcome: Outcome) {
        guard let status else { return ("internalError", nil, .error) }
        let open = ["CREATED", "READY_TO_PAY", "PENDING"].contains(status)
        if closedByUser, open {
            if method == "PIX" { return ("processing", "CLOSED_BY_USER", .pending) }
            return ("userCancelled", "CANCELLED_BY_USER", .canceled)
        }
        switch status {
        case "SUCCEEDED", "VERIFIED", "REFUNDED", "IN_DISPUTE", "CHARGEBACK", "FRAUD": return ("succeeded", nil, .succeeded)
        case "CREATED", "READY_TO_PAY", "PENDING": return ("processing", subStatus, .pending)
        case "DECLINED", "REJECTED": return ("reject", subStatus, .declined)
        case "EXPIRED": return ("fail", "EXPIRED", .expired)
        case "CANCELED": return ("fail", "CANCELED", .canceled)
        default: return ("fail", subStatus, .error)
        }
    }

    /// The Android SDK's string for a result (§3.9).
    package static func android(_ result: String) -> String {
        switch result {
        case "succeeded": "SUCCEEDED"
        case "processing": "PROCESSING"
        case "reject": "REJECT"
        case "internalError": "INTERNAL_ERROR"
        case "userCancelled": "CANCELED"
        default: "FAIL"
        }
    }

    /// `deeplink: yunoPaymentResult` with `{payment | status + sub_status, method?, closed_by_user?, http_status?}`:
    /// `payment` is a payment object (a create answer, `GET /payments/{id}`'s `payment`, a payer answer's `payment`);
    /// an `http_status` of 500 or more (the backend failed, no payment) is `internalError`.
    static func observe(_ parameters: Value) throws -> Observation {
        let payment = parameters["payment"]
        var status = parameters["status"]?.stringValue ?? payment?["status"]?.stringValue
        let sub = parameters["sub_status"]?.stringValue ?? payment?["sub_status"]?.stringValue
        let method = parameters["method"]?.stringValue ?? payment?["payment_method"]?["type"]?.stringValue
        let closed = parameters["closed_by_user"]?.boolValue ?? false
        if let http = parameters["http_status"]?.intValue, http >= 500 { status = nil }
        if status == nil, parameters["http_status"] == nil, payment == nil {
            throw ProviderError.invalidStep("'deeplink: yunoPaymentResult' needs 'with: { payment }' or 'with: { status, sub_status }' (or http_status for a failed backend)")
        }
        let (result, substatus, outcome) = result(status: status, subStatus: sub, method: method, closedByUser: closed)
        let body = Value.object([
            "result": .string(result), "substatus": substatus.map { .string($0) } ?? .null, "android": .string(android(result)),
            "backend": .object(["status": status.map { .string($0) } ?? .null, "sub_status": sub.map { .string($0) } ?? .null]),
        ])
        return Observation(status: nil, body: body, rawBody: JSONText.encode(body), outcome: outcome)
    }
}
