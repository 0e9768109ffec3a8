import PayCheckCore

extension YunoProvider {
    /// Yuno calls the webhooks an account registers (providers.md §3.8, §3.13): the backend registers its own.
    package var contractNotificationURLUnused: String? {
        "Yuno calls the webhooks the backend registers itself (POST /v1/webhooks at start-up, or in Yuno's dashboard)"
    }

    /// Every status × sub_status pair of §3.6 → canonical outcome (§3.9, §6). Only the documented pairs are mapped:
    /// any other pair a server answers is a conformance failure.
    package static let mapping: OutcomeMapping = {
        typealias S = YunoPaymentStatus
        typealias U = YunoSubStatus
        return OutcomeMapping([
            .init(S.created, reason: U.created, .pending, "created, the gateway has not answered yet (§3.6)"),
            .init(S.readyToPay, reason: U.created, .pending, "waiting for the customer: an async APM such as a PIX QR (§3.6)"),
            .init(S.pending, reason: U.authorized, .pending, "authorized, not captured: pending until captured (§3.6, §6)"),
            .init(S.pending, reason: U.inProcess, .pending, "the customer is with the provider, e.g. a PIX QR on screen (§3.6)"),
            .init(S.pending, reason: U.waitingAdditionalStep, .pending, "3DS or a second factor needed: the SDK must continue (§3.6)"),
            .init(S.pending, reason: U.pendingProviderConfirmation, .pending, "waiting for the provider's answer (§3.6)"),
            .init(S.pending, reason: U.pendingFraudReview, .pending, "held by fraud screening for review (§3.6)"),
            .init(S.pending, reason: U.pendingOTPCompletion, .pending, "the payer has the 3DS/OTP challenge to complete (§3.6)"),
            .init(S.verified, reason: U.verified, .succeeded, "zero-amount card verification succeeded (§3.6, §3.9)"),
            .init(S.expired, reason: U.expired, .expired, "offline method or authorization expired (§3.6)"),
            .init(S.rejected, reason: U.rejected, .declined, "rejected by Yuno, including a capture rejection (§3.6, §3.9)"),
            .init(S.declined, reason: U.declined, .declined, "declined by the provider (§3.6)"),
            .init(S.declined, reason: U.fraudDeclined, .declined, "declined by fraud screening (§3.6)"),
            .init(S.succeeded, reason: U.approved, .succeeded, "approved (§3.6, §3.9)"),
            .init(S.succeeded, reason: U.partiallyApproved, .succeeded, "approved for part of the amount (§3.6)"),
            .init(S.succeeded, reason: U.captured, .succeeded, "authorized, then captured (§3.6)"),
            .init(S.succeeded, reason: U.partiallyCaptured, .succeeded, "part of the authorization captured (§3.6)"),
            .init(S.succeeded, reason: U.partiallyRefunded, .succeeded, "paid, part refunded (§3.6, §3.13 P1-9)"),
            .init(S.succeeded, reason: U.partiallyChargebacked, .succeeded, "paid, part charged back (§3.6)"),
            .init(
                S.succeeded, reason: U.fraudDeclined, .succeeded,
                "post-authorization fraud decline; status SUCCEEDED is the source of truth (§3.6), the merchant reviews the sub_status"),
            .init(S.succeeded, reason: U.refundRetryInProcess, .succeeded, "paid; Yuno is retrying a refund (§3.6)"),
            .init(S.succeeded, reason: U.captureRetryInProcess, .succeeded, "authorized; Yuno is retrying the capture (§3.6)"),
            .init(
                S.succeeded, reason: U.captureRetryProcessFailed, .succeeded,
                "authorized; the capture retries gave up — status SUCCEEDED per §3.6, the sub_status needs the merchant's action"),
            .init(S.refunded, reason: U.pendingProviderConfirmation, .succeeded, "post-payment: a refund waits for the provider (§3.6, §3.9)"),
            .init(S.refunded, reason: U.refunded, .succeeded, "post-payment: paid, then refunded (§3.9 'post-payment states')"),
            .init(S.canceled, reason: U.pendingProviderConfirmation, .canceled, "canceled by the merchant, the provider has yet to confirm (§3.6)"),
            .init(S.canceled, reason: U.canceled, .canceled, "canceled by the merchant (§3.6, §3.9)"),
            .init(S.inDispute, reason: U.received, .succeeded, "post-payment: paid, dispute received (§3.6, §3.9)"),
            .init(S.inDispute, reason: U.pendingReview, .succeeded, "post-payment: paid, dispute under review (§3.6, §3.9)"),
            .init(S.chargeback, reason: U.lost, .succeeded, "post-payment: paid, chargeback lost (§3.6, §3.9)"),
            .init(S.error, reason: U.error, .error, "error (§3.6)"),
            .init(S.error, reason: U.timeout, .error, "the provider timed out (§3.6)"),
            .init(S.error, reason: U.pendingReverse, .error, "timed out, a reversal is pending (§3.6)"),
            .init(S.error, reason: U.reversedByTimeout, .error, "timed out and reversed (§3.6)"),
            .init(
                S.fraud, reason: U.fraudVerified, .succeeded,
                "verified by the fraud provider in a standalone screening: a success on Yuno's status page (§3.9's 'FRAUD (declined)' is an inference)"),
        ])
    }()

    /// The codes of §3.7, §3.13 P1-11, P1-13 and P2-18, with their HTTP statuses.
    package static let catalog: ErrorCatalog = {
        func p(_ code: String, _ message: String, _ source: String = "providers.md §3.7") -> ErrorCatalog.Entry {
            .init(code, .P, message, httpStatus: 400, source: source)
        }
        let hooks = "providers.md §3.13 P1-13"
        return ErrorCatalog([
            p("INVALID_REQUEST", "Invalid request"),
            p("INVALID_PARAMETERS", "Invalid parameters"),
            p("MISSING_PARAMETERS", "Missing parameters"),
            p("INVALID_STATUS", "The payment's status does not allow this operation"),
            p("COUNTRY_NOT_SUPPORTED", "Country not supported"),
            p("CURRENCY_NOT_ALLOWED", "Currency not allowed"),
            p("CUSTOMER_ID_DUPLICATED", "Customer id duplicated"),
            p("INVALID_AMOUNT", "Invalid amount"),
            p("INVALID_ACCOUNT_ID", "Account id is invalid"),
            p("INVALID_TRANSACTION", "Invalid transaction"),
            p("INVALID_API_VERSION", "Invalid API version"),
            p("INVALID_TRANSACTION_TYPE", "Invalid transaction type"),
            p("CHARGEBACK_IN_PROCESS", "Chargeback in process"),
            p("UNAVAILABLE_PAYMENT_METHOD", "Payment method not available"),
            p("NOT_FOUND", "Not found"),
            p("UNEXPECTED_RESPONSE", "Unexpected response"),
            p("BAD_REQUEST", "Bad request"),
            p("INVALID_CUSTOMER_FOR_TOKEN", "Invalid customer for token"),
            p("PAYMENT_NOT_FOUND", "Payment not found"),
            p("TRANSACTION_NOT_FOUND", "Transaction not found"),
            p("CUSTOMER_NOT_FOUND", "Customer not found."),
            p("CHECKOUT_SESSION_NOT_FOUND", "Checkout session not found or inactive"),
            .init("IDEMPOTENCY_DUPLICATED", .P, "Idempotency is duplicated.", httpStatus: 400, source: "providers.md §3.2, §3.13 P2-18"),
            .init(
                "REQUEST_IN_PROCESS", .P, "Request with the same idempotency is already in process. Try again in a few seconds.",
                httpStatus: 400, source: "providers.md §3.2, §3.13 P2-18"),
            p("WEBHOOK_INVALID_REQUEST", "account_id, name and url are required.", hooks),
            p("WEBHOOK_INVALID_TRIGGER", "Invalid trigger.", hooks),
            p("WEBHOOK_INVALID_OAUTH2", "Invalid OAuth2 configuration.", hooks),
            p("WEBHOOK_INVALID_RENEWAL_DAYS", "Invalid renewal days.", hooks),
            p("WEBHOOK_URL_UNSAFE", "The webhook url must resolve to a public address.", hooks),
            .init("INVALID_CREDENTIALS", .A, "Invalid credentials", httpStatus: 401, source: "providers.md §3.7, §3.13 P2-18"),
            .init("EXPIRED_CREDENTIALS", .A, "Expired credentials", httpStatus: 401, source: "providers.md §3.7"),
            .init("UNKNOWN_IP_ADDRESS", .A, "Unknown IP address", httpStatus: 401, source: "providers.md §3.7"),
            .init("NOT_AUTHENTICATED", .A, "Not authenticated", httpStatus: 401, source: hooks),
            .init("INVALID_TOKEN", .P, "Invalid Token.", httpStatus: 401, source: "providers.md §3.7, §3.13 P1-12"),
            .init(
                "TOKEN_IN_USE", .P, "The token provided is currently being used in another request.", httpStatus: 401,
                source: "providers.md §3.7, §3.13 P1-12"),
            .init("AUTHORIZATION_REQUIRED", .A, "The merchant has no authorization to use this API.", httpStatus: 403, source: "providers.md §3.7"),
            .init("NOT_FOUND", .P, "Not Found", httpStatus: 404, source: "providers.md §3.13 P1-11"),
            .init("WEBHOOK_NOT_FOUND", .P, "Webhook not found.", httpStatus: 404, source: hooks),
            .init("UNSUPPORTED_METHOD", .P, "Unsupported method", httpStatus: 405, source: "providers.md §3.7"),
            .init("WEBHOOK_ALREADY_EXISTS", .P, "Webhook already exists.", httpStatus: 409, source: hooks),
            .init("INTERNAL_ERROR", .S, "Internal error", httpStatus: 500, source: "providers.md §3.7"),
            .init("WEBHOOK_UPSTREAM_ERROR", .S, "Upstream error", httpStatus: 502, source: hooks),
            .init("REQUEST_TIMEOUT", .S, "Request timeout", httpStatus: 504, source: "providers.md §3.7"),
        ])
    }()
}

/// The `payer:` and `mock:` actions the Yuno mock serves.
///
/// | Action | Does |
/// |---|---|
/// | `payer: continue` `{payment_id}` | the app's `Yuno.continuePayment()` (§3.5): the SDK shows the PIX QR (the same on every reopening), the 3DS challenge or the wallet sheet |
/// | `payer: pay` `{payment_id}` | the payer pays the PIX QR in the bank app |
/// | `payer: authenticate` `{payment_id, success}` | the payer completes (or fails) the 3DS/OTP challenge |
/// | `payer: close` `{payment_id}` | the payer closes the SDK's screen; the backend does not change |
/// | `mock: event` `{payment_id, event, amount?}` | the provider's or Yuno's later move along §3.6 (fraud review, PSP answer, dispute, retries, reversal…) |
/// | `mock: gateway` `{latency, capture, refund, cancel, qr_expiry, psp_timeout, strict_webhook_urls}` | the test gateway's behaviour; keys left out go back to their defaults |
/// | `mock: webhooks` `{payment_id?, webhook_id?}` | every webhook attempt with the exact headers and body sent |
package enum YunoControlAction {
    package static let all: [ControlAction] = [
        ControlAction(.payer, "continue", parameters: ["payment_id"], required: ["payment_id"]),
        ControlAction(.payer, "pay", parameters: ["payment_id"], required: ["payment_id"]),
        ControlAction(.payer, "authenticate", parameters: ["payment_id", "success"], required: ["payment_id"]),
        ControlAction(.payer, "close", parameters: ["payment_id"], required: ["payment_id"]),
        ControlAction(.mock, "event", parameters: ["payment_id", "event", "amount"], required: ["payment_id", "event"]),
        ControlAction(
            .mock, "gateway",
            parameters: [
                "latency", "capture", "refund", "cancel", "qr_expiry", "psp_timeout", "strict_webhook_urls", "max_amount_digits",
                "card_type", "card_category", "card_issuer",
            ],
            runsAlone: true),
        ControlAction(.mock, "webhooks", parameters: ["payment_id", "webhook_id"]),
        ControlAction(.mock, "forge", parameters: ["payment_id"], required: ["payment_id"], delivers: true),
    ]
}

/// A Yuno payment's `status` (providers.md §3.6): the adapter's table and the mock share it.
package enum YunoPaymentStatus: String, NativeState {
    case created = "CREATED"
    case readyToPay = "READY_TO_PAY"
    case pending = "PENDING"
    case verified = "VERIFIED"
    case expired = "EXPIRED"
    case rejected = "REJECTED"
    case declined = "DECLINED"
    case succeeded = "SUCCEEDED"
    case refunded = "REFUNDED"
    case canceled = "CANCELED"
    case inDispute = "IN_DISPUTE"
    case chargeback = "CHARGEBACK"
    case error = "ERROR"
    case fraud = "FRAUD"
}

/// A Yuno payment's `sub_status` (providers.md §3.6), which narrows the `status`; only some pairs are documented
/// (the adapter's ``YunoProvider/mapping``).
package enum YunoSubStatus: String, NativeState {
    case created = "CREATED"
    case authorized = "AUTHORIZED"
    case inProcess = "IN_PROCESS"
    case waitingAdditionalStep = "WAITING_ADDITIONAL_STEP"
    case pendingProviderConfirmation = "PENDING_PROVIDER_CONFIRMATION"
    case pendingFraudReview = "PENDING_FRAUD_REVIEW"
    case pendingOTPCompletion = "PENDING_OTP_COMPLETION"
    case verified = "VERIFIED"
    case expired = "EXPIRED"
    case rejected = "REJECTED"
    case declined = "DECLINED"
    case fraudDeclined = "FRAUD_DECLINED"
    case approved = "APPROVED"
    case partiallyApproved = "PARTIALLY_APPROVED"
    case captured = "CAPTURED"
    case partiallyCaptured = "PARTIALLY_CAPTURED"
    case partiallyRefunded = "PARTIALLY_REFUNDED"
    case partiallyChargebacked = "PARTIALLY_CHARGEBACKED"
    case refundRetryInProcess = "REFUND_RETRY_IN_PROCESS"
    case captureRetryInProcess = "CAPTURE_RETRY_IN_PROCESS"
    case captureRetryProcessFailed = "CAPTURE_RETRY_PROCESS_FAILED"
    case refunded = "REFUNDED"
    case canceled = "CANCELED"
    case received = "RECEIVED"
    case pendingReview = "PENDING_REVIEW"
    case lost = "LOST"
    case error = "ERROR"
    case timeout = "TIMEOUT"
    case pendingReverse = "PENDING_REVERSE"
    case reversedByTimeout = "REVERSED_BY_TIMEOUT"
    case fraudVerified = "FRAUD_VERIFIED"
}

/// A `status` × `sub_status` pair of providers.md §3.6, so the mock names a pair without text.
package struct YunoStatePair: Hashable, Sendable {
    /// The `status`.
    package var status: YunoPaymentStatus
    /// The `sub_status`.
    package var subStatus: YunoSubStatus

    /// Creates a pair.
    package init(_ status: YunoPaymentStatus, _ subStatus: YunoSubStatus) {
        self.status = status
        self.subStatus = subStatus
    }

    /// `STATUS/SUB_STATUS`, as the API spells them (the key of the adapter's table and of the mock's journal).
    package var key: String { "\(status.rawValue)/\(subStatus.rawValue)" }
}
