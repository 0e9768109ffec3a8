import PayCheckCore

extension YunoProvider {
    /// Every status × sub_status pair of §3.6 → canonical outcome (§3.9, §6). Only the documented pairs are mapped:
    /// any other pair a server answers is a conformance failure.
    public static let mapping = OutcomeMapping([
        .init("CREATED", reason: "CREATED", .pending, "created, the gateway has not answered yet (§3.6)"),
        .init("READY_TO_PAY", reason: "CREATED", .pending, "waiting for the customer: an async APM such as a PIX QR (§3.6)"),
        .init("PENDING", reason: "AUTHORIZED", .pending, "authorized, not captured: pending until captured (§3.6, §6)"),
        .init("PENDING", reason: "IN_PROCESS", .pending, "the customer is with the provider, e.g. a PIX QR on screen (§3.6)"),
        .init("PENDING", reason: "WAITING_ADDITIONAL_STEP", .pending, "3DS or a second factor needed: the SDK must continue (§3.6)"),
        .init("PENDING", reason: "PENDING_PROVIDER_CONFIRMATION", .pending, "waiting for the provider's answer (§3.6)"),
        .init("PENDING", reason: "PENDING_FRAUD_REVIEW", .pending, "held by fraud screening for review (§3.6)"),
        .init("PENDING", reason: "PENDING_OTP_COMPLETION", .pending, "the payer has the 3DS/OTP challenge to complete (§3.6)"),
        .init("VERIFIED", reason: "VERIFIED", .succeeded, "zero-amount card verification succeeded (§3.6, §3.9)"),
        .init("EXPIRED", reason: "EXPIRED", .expired, "offline method or authorization expired (§3.6)"),
        .init("REJECTED", reason: "REJECTED", .declined, "rejected by Yuno, including a capture rejection (§3.6, §3.9)"),
        .init("DECLINED", reason: "DECLINED", .declined, "declined by the provider (§3.6)"),
        .init("DECLINED", reason: "FRAUD_DECLINED", .declined, "declined by fraud screening (§3.6)"),
        .init("SUCCEEDED", reason: "APPROVED", .succeeded, "approved (§3.6, §3.9)"),
        .init("SUCCEEDED", reason: "PARTIALLY_APPROVED", .succeeded, "approved for part of the amount (§3.6)"),
        .init("SUCCEEDED", reason: "CAPTURED", .succeeded, "authorized, then captured (§3.6)"),
        .init("SUCCEEDED", reason: "PARTIALLY_CAPTURED", .succeeded, "part of the authorization captured (§3.6)"),
        .init("SUCCEEDED", reason: "PARTIALLY_REFUNDED", .succeeded, "paid, part refunded (§3.6, §3.13 P1-9)"),
        .init("SUCCEEDED", reason: "PARTIALLY_CHARGEBACKED", .succeeded, "paid, part charged back (§3.6)"),
        .init("SUCCEEDED", reason: "FRAUD_DECLINED", .succeeded,
              "post-authorization fraud decline; status SUCCEEDED is the source of truth (§3.6), the merchant reviews the sub_status"),
        .init("SUCCEEDED", reason: "REFUND_RETRY_IN_PROCESS", .succeeded, "paid; Yuno is retrying a refund (§3.6)"),
        .init("SUCCEEDED", reason: "CAPTURE_RETRY_IN_PROCESS", .succeeded, "authorized; Yuno is retrying the capture (§3.6)"),
        .init("SUCCEEDED", reason: "CAPTURE_RETRY_PROCESS_FAILED", .succeeded,
              "authorized; the capture retries gave up — status SUCCEEDED per §3.6, the sub_status needs the merchant's action"),
        .init("REFUNDED", reason: "PENDING_PROVIDER_CONFIRMATION", .succeeded, "post-payment: a refund waits for the provider (§3.6, §3.9)"),
        .init("REFUNDED", reason: "REFUNDED", .succeeded, "post-payment: paid, then refunded (§3.9 'post-payment states')"),
        .init("CANCELED", reason: "PENDING_PROVIDER_CONFIRMATION", .canceled, "canceled by the merchant, the provider has yet to confirm (§3.6)"),
        .init("CANCELED", reason: "CANCELED", .canceled, "canceled by the merchant (§3.6, §3.9)"),
        .init("IN_DISPUTE", reason: "RECEIVED", .succeeded, "post-payment: paid, dispute received (§3.6, §3.9)"),
        .init("IN_DISPUTE", reason: "PENDING_REVIEW", .succeeded, "post-payment: paid, dispute under review (§3.6, §3.9)"),
        .init("CHARGEBACK", reason: "LOST", .succeeded, "post-payment: paid, chargeback lost (§3.6, §3.9)"),
        .init("ERROR", reason: "ERROR", .error, "error (§3.6)"),
        .init("ERROR", reason: "TIMEOUT", .error, "the provider timed out (§3.6)"),
        .init("ERROR", reason: "PENDING_REVERSE", .error, "timed out, a reversal is pending (§3.6)"),
        .init("ERROR", reason: "REVERSED_BY_TIMEOUT", .error, "timed out and reversed (§3.6)"),
        .init("FRAUD", reason: "FRAUD_VERIFIED", .succeeded,
              "verified by the fraud provider in a standalone screening: a success on Yuno's status page (§3.9's 'FRAUD (declined)' is an inference)"),
    ])

    /// The codes of §3.7, §3.13 P1-11, P1-13 and P2-18, with their HTTP statuses.
    public static let catalog: ErrorCatalog = {
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
            .init("REQUEST_IN_PROCESS", .P, "Request with the same idempotency is already in process. Try again in a few seconds.",
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
            .init("TOKEN_IN_USE", .P, "The token provided is currently being used in another request.", httpStatus: 401,
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
public enum YunoControlAction {
    public static let all: [ControlAction] = [
        ControlAction(.payer, "continue", parameters: ["payment_id"], required: ["payment_id"]),
        ControlAction(.payer, "pay", parameters: ["payment_id"], required: ["payment_id"]),
        ControlAction(.payer, "authenticate", parameters: ["payment_id", "success"], required: ["payment_id"]),
        ControlAction(.payer, "close", parameters: ["payment_id"], required: ["payment_id"]),
        ControlAction(.mock, "event", parameters: ["payment_id", "event", "amount"], required: ["payment_id", "event"]),
        ControlAction(.mock, "gateway", parameters: ["latency", "capture", "refund", "cancel", "qr_expiry", "psp_timeout", "strict_webhook_urls", "max_amount_digits"],
                      runsAlone: true),
        ControlAction(.mock, "webhooks", parameters: ["payment_id", "webhook_id"]),
    ]
}
