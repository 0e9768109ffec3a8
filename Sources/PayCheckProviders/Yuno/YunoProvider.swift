import Foundation
import PayCheckCore

/// The Yuno API adapter (providers.md §3, corrected by §3.13): the `public-api-key` and `private-secret-key` headers
/// on every request (§3.2), JSON bodies, `X-Idempotency-Key` on payment creation (§3.2, §3.13 P1-5), the
/// `{code, messages}` error envelope (§3.7).
public struct YunoProvider: Provider {
    /// `yuno`.
    public let id = "yuno"

    /// Creates the adapter.
    public init() {}

    /// The two keys (§3.2) and the account id most bodies carry (§3.2).
    public var credentialFields: [CredentialField] {
        [
            CredentialField(name: "publicApiKey", secret: true, environmentVariable: "PAYCHECK_YUNO_PUBLIC_API_KEY"),
            CredentialField(name: "privateSecretKey", secret: true, environmentVariable: "PAYCHECK_YUNO_PRIVATE_SECRET_KEY"),
            CredentialField(name: "accountId", secret: false, environmentVariable: "PAYCHECK_YUNO_ACCOUNT_ID"),
        ]
    }

    /// Sandbox-shaped keys (`sandbox_` prefix, §3.13 P1-20) the mock knows, and its account.
    public var mockCredentials: [String: String] {
        [
            "publicApiKey": "sandbox_PayCheckYunoMockPublicKey01",
            "privateSecretKey": "sandbox_PayCheckYunoMockPrivateKey01",
            "accountId": "9a3f1c2e-4b5d-4e6f-8a7b-0c1d2e3f4a5b",
        ]
    }

    /// `https://api-sandbox.y.uno` (operations are under `/v1`, §3.1).
    public var sandboxBaseURL: String { "https://api-sandbox.y.uno" }

    public var outcomeMapping: OutcomeMapping { Self.mapping }
    public var errorCatalog: ErrorCatalog { Self.catalog }
    public var secretFieldNames: [String] { ["publicApiKey", "privateSecretKey", "public-api-key", "private-secret-key", "number", "security_code"] }

    /// `auth:` overrides: another key, a missing key, or the two keys swapped (issue #13 item 1).
    static let authKeys = ["publicApiKey", "privateSecretKey", "omit", "swap"]

    public var operations: [ProviderOperation] {
        typealias P = ProviderOperation.Parameter
        let session = P("checkout_session", .path, required: true)
        let paymentId = P("payment_id", .path, required: true)
        let keys = Self.authKeys
        let accept = [("Accept", "application/json")]
        let customer = ["merchant_customer_id", "merchant_customer_created_at", "first_name", "last_name", "email", "gender",
                        "date_of_birth", "nationality", "country", "document", "phone", "billing_address", "shipping_address", "metadata"]
        let createSession = ["account_id", "merchant_order_id", "payment_description", "country", "customer_id", "callback_url", "amount",
                             "alternative_amount", "metadata", "workflow", "installments", "recurring_payment", "checkout_id"]
        let payment = ["account_id", "description", "country", "merchant_order_id", "merchant_reference", "amount", "payment_method",
                       "checkout", "customer_payer", "workflow", "additional_data", "callback_url", "subscription", "split_marketplace",
                       "fraud_screening", "metadata"]
        return [
            ProviderOperation("createCustomer", method: "POST", path: "/v1/customers", parameters: customer.map { P($0) },
                              authKeys: keys, headers: accept),
            ProviderOperation("createCheckoutSession", method: "POST", path: "/v1/checkout/sessions",
                              parameters: createSession.map { P($0) }, bodyCodec: Self.json, authKeys: keys, headers: accept),
            ProviderOperation("getCheckoutSession", method: "GET", path: "/v1/checkout/sessions/{checkout_session}", parameters: [session],
                              bodyCodec: .none, authKeys: keys, headers: accept),
            ProviderOperation("createOneTimeToken", method: "POST", path: "/v1/checkout/sessions/{checkout_session}/token",
                              parameters: [session] + ["payment_method", "account_id", "card_data", "three_d_secure"].map { P($0) },
                              authKeys: keys, headers: accept),
            ProviderOperation("createPayment", method: "POST", path: "/v1/payments", parameters: payment.map { P($0) }, bodyCodec: Self.json,
                              idempotencyHeader: "X-Idempotency-Key", authKeys: keys, headers: accept),
            ProviderOperation("getPayment", method: "GET", path: "/v1/payments/{payment_id}",
                              parameters: [paymentId, P("raw_response", .query), P("transactions_history", .query)],
                              bodyCodec: .none, authKeys: keys, headers: accept),
        ]
    }

    /// JSON, with `account_id` filled from the `accountId` credential when the step leaves it out (§3.2).
    static let json = ProviderOperation.BodyCodec.provider(contentType: "application/json")

    public func encodeBody(_ body: Value, for operation: ProviderOperation, credentials: [String: String]) throws -> [UInt8] {
        guard case .object(var members) = body else { throw ProviderError.invalidStep("'\(operation.name)' needs a mapping body") }
        if members["account_id"] == nil, let account = credentials["accountId"] { members["account_id"] = .string(account) }
        return Array(JSONText.encode(.object(members)).utf8)
    }

    /// `public-api-key` + `private-secret-key`, or the step's `auth:` overrides.
    public func sign(_ request: inout OutgoingRequest, context: ProviderContext) throws {
        var publicKey = context.credentials["publicApiKey"]
        var privateKey = context.credentials["privateSecretKey"]
        var omit = false
        if let auth = request.auth, auth != .null {
            guard let object = auth.objectValue else { throw ProviderError.invalidStep("'auth:' must be a mapping") }
            if let other = object["publicApiKey"]?.stringValue { publicKey = other; request.secrets.append(other) }
            if let other = object["privateSecretKey"]?.stringValue { privateKey = other; request.secrets.append(other) }
            if object["swap"]?.boolValue == true { swap(&publicKey, &privateKey) }
            omit = object["omit"]?.boolValue ?? false
        }
        guard !omit else { return }
        guard let publicKey, let privateKey else {
            throw ProviderError.couldNotRun("Yuno needs the credentials 'publicApiKey' and 'privateSecretKey' (PAYCHECK_YUNO_PUBLIC_API_KEY, PAYCHECK_YUNO_PRIVATE_SECRET_KEY)")
        }
        request.setHeader("public-api-key", publicKey)
        request.setHeader("private-secret-key", privateKey)
        request.secrets.append(publicKey)
        request.secrets.append(privateKey)
    }

    /// Error bodies `{code, messages}` map to the catalog; payments (bare or wrapped in `payment`, §3.13 P1-7) map
    /// their `status`/`sub_status`.
    public func read(_ response: HTTPResponseData, of operation: ProviderOperation) throws -> Observation {
        let text = response.text
        var observation = Observation(status: response.status, headers: response.headers, body: Observation.parseBody(text), rawBody: text)
        guard let body = observation.body else { return observation }
        if response.status >= 400 {
            guard let code = body["code"]?.stringValue, let entry = errorCatalog.entry(code) else {
                throw ProviderError.nonConformance("Yuno answered HTTP \(response.status) without a known 'code'", expected: "an error envelope of §3.7")
            }
            let message = body["messages"]?.arrayValue?.compactMap(\.stringValue).joined(separator: "; ")
            observation.error = ErrorCatalog.observed(entry, message: message ?? entry.message)
            return observation
        }
        let payment = operation.name == "getPayment" ? (body["payment"] ?? body) : body
        if operation.name == "createPayment" || operation.name == "getPayment", let status = payment["status"]?.stringValue {
            try map(status, reason: payment["sub_status"]?.stringValue, in: "the \(operation.name) answer (providers.md §3.6)", into: &observation)
        }
        return observation
    }

    /// Backend `status` (with `sub_status` where it changes the meaning) → canonical outcome (§3.9, §6).
    public static let mapping = OutcomeMapping([
        .init("CREATED", .pending, "created, nothing attempted yet (§3.6)"),
        .init("READY_TO_PAY", .pending, "waiting for the customer (async APM, §3.6)"),
        .init("PENDING", .pending, "in process, 3DS or provider confirmation (§3.6)"),
        .init("SUCCEEDED", .succeeded, "approved or captured (§3.6, §3.9)"),
        .init("VERIFIED", .succeeded, "zero-amount card verification succeeded (§3.9)"),
        .init("DECLINED", .declined, "declined by the provider or by fraud screening (§3.6)"),
        .init("REJECTED", .declined, "rejected by Yuno (§3.6, §3.9)"),
        .init("FRAUD", .declined, "standalone fraud screening verdict (§3.9)"),
        .init("CANCELED", .canceled, "canceled by the merchant (§3.9)"),
        .init("EXPIRED", .expired, "offline method or authorization expired (§3.6)"),
        .init("ERROR", .error, "error, timeout or reversal (§3.6)"),
        .init("REFUNDED", .succeeded, "post-payment: paid, then refunded (§3.9 'post-payment states')"),
        .init("IN_DISPUTE", .succeeded, "post-payment: paid, dispute open (§3.9)"),
        .init("CHARGEBACK", .succeeded, "post-payment: paid, chargeback lost (§3.9)"),
    ])

    /// The codes of §3.7 and §3.13 P2-18, with their HTTP statuses.
    public static let catalog: ErrorCatalog = {
        func p(_ code: String, _ message: String) -> ErrorCatalog.Entry {
            .init(code, .P, message, httpStatus: 400, source: "providers.md §3.7")
        }
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
            p("PAYMENT_NOT_FOUND", "Payment not found"),
            p("CUSTOMER_NOT_FOUND", "Customer not found."),
            p("CHECKOUT_SESSION_NOT_FOUND", "Checkout session not found or inactive"),
            .init("IDEMPOTENCY_DUPLICATED", .P, "Idempotency is duplicated.", httpStatus: 400, source: "providers.md §3.2, §3.13 P2-18"),
            .init("REQUEST_IN_PROCESS", .P, "Request with the same idempotency is already in process. Try again in a few seconds.",
                  httpStatus: 400, source: "providers.md §3.2, §3.13 P2-18"),
            .init("INVALID_CREDENTIALS", .A, "Invalid credentials", httpStatus: 401, source: "providers.md §3.7, §3.13 P2-18"),
            .init("INVALID_TOKEN", .P, "Invalid Token.", httpStatus: 401, source: "providers.md §3.7, §3.13 P1-12"),
            .init("TOKEN_IN_USE", .P, "The token provided is currently being used in another request.", httpStatus: 401,
                  source: "providers.md §3.7, §3.13 P1-12"),
            .init("AUTHORIZATION_REQUIRED", .A, "The merchant has no authorization to use this API.", httpStatus: 403, source: "providers.md §3.7"),
            .init("UNSUPPORTED_METHOD", .P, "Unsupported method", httpStatus: 405, source: "providers.md §3.7"),
            .init("INTERNAL_ERROR", .S, "Internal error", httpStatus: 500, source: "providers.md §3.7"),
            .init("REQUEST_TIMEOUT", .S, "Request timeout", httpStatus: 504, source: "providers.md §3.7"),
        ])
    }()
}
