import PayCheckCore

/// The `call:` operations of the khipu adapter (providers.md §2.3): API 3.0 under `/v3` (JSON, `x-api-key`) and
/// API 2.0 under `/api/2.0` (form-encoded, HMAC-signed `Authorization`), the 2.0 ones suffixed `V2`.
enum KhipuOperation: String, Sendable, CaseIterable {
    case banks, createPayment, getPayment, deletePayment, confirmPayment, refund, predict, paymentMethods
    /// The newer 3.0 refund API and its wallet (§2.12 B4).
    case createRefund, refundWalletBalance
    case banksV2, createPaymentV2, getPaymentV2, getPaymentByNotificationToken, deletePaymentV2, confirmPaymentV2, refundV2
    case paymentMethodsV2
    /// Local: verify an `x-khipu-signature` notification header (§2.7).
    case verifyNotification

    /// Whether the operation is API 2.0 (signed form requests).
    var isV2: Bool { rawValue.hasSuffix("V2") || self == .getPaymentByNotificationToken }

    /// The create-payment fields of §2.4, all sent as given.
    static let createFields = [
        "subject", "currency", "amount", "transaction_id", "custom", "body", "bank_id", "return_url", "cancel_url",
        "picture_url", "notify_url", "contract_url", "notify_api_version", "expires_date", "send_email", "payer_name",
        "payer_email", "send_reminders", "responsible_user_email", "fixed_payer_personal_identifier", "integrator_fee",
        "collect_account_uuid", "confirm_timeout_date", "mandatory_payment_method", "psp_client_merchant_name",
    ]

    /// The HTTP declaration, or `nil` for the local operation.
    var declaration: ProviderOperation? {
        typealias P = ProviderOperation.Parameter
        let id = P("payment_id", .path, required: true)
        let (method, path, parameters): (String, String, [P])
        switch self {
        case .banks: (method, path, parameters) = ("GET", "/v3/banks", [])
        case .createPayment: (method, path, parameters) = ("POST", "/v3/payments", Self.createFields.map { P($0) })
        case .getPayment: (method, path, parameters) = ("GET", "/v3/payments/{payment_id}", [id])
        case .deletePayment: (method, path, parameters) = ("DELETE", "/v3/payments/{payment_id}", [id])
        case .confirmPayment: (method, path, parameters) = ("POST", "/v3/payments/{payment_id}/confirm", [id])
        case .refund: (method, path, parameters) = ("POST", "/v3/payments/{payment_id}/refunds", [id, P("amount")])
        case .predict:
            (method, path, parameters) = ("GET", "/v3/predict", ["payer_email", "bank_id", "amount", "currency"].map { P($0, .query) })
        case .paymentMethods: (method, path, parameters) = ("GET", "/v3/merchants/{receiver_id}/paymentMethods", [P("receiver_id", .path, required: true)])
        case .createRefund: (method, path, parameters) = ("POST", "/v3/refunds", [P("type", required: true), P("payment_id", required: true), P("amount")])
        case .refundWalletBalance: (method, path, parameters) = ("GET", "/v3/refund-wallet/balance", [])
        case .banksV2: (method, path, parameters) = ("GET", "/api/2.0/banks", [])
        case .createPaymentV2: (method, path, parameters) = ("POST", "/api/2.0/payments", Self.createFields.map { P($0) })
        case .getPaymentV2: (method, path, parameters) = ("GET", "/api/2.0/payments/{payment_id}", [id])
        case .getPaymentByNotificationToken:
            (method, path, parameters) = ("GET", "/api/2.0/payments", [P("notification_token", .query, required: true)])
        case .deletePaymentV2: (method, path, parameters) = ("DELETE", "/api/2.0/payments/{payment_id}", [id])
        case .confirmPaymentV2: (method, path, parameters) = ("POST", "/api/2.0/payments/{payment_id}/confirm", [id])
        case .refundV2: (method, path, parameters) = ("POST", "/api/2.0/payments/{payment_id}/refunds", [id, P("amount")])
        case .paymentMethodsV2:
            (method, path, parameters) = ("GET", "/api/2.0/merchants/{receiver_id}/paymentMethods", [P("receiver_id", .path, required: true)])
        case .verifyNotification: return nil
        }
        let hasBody = method == "POST"
        let operation = ProviderOperation(
            rawValue, method: method, path: path, parameters: parameters,
            bodyCodec: hasBody ? (isV2 ? .form : .json) : .none,
            authKeys: isV2 ? KhipuAuthOverrides.v2Keys : KhipuAuthOverrides.v3Keys, headers: [("Accept", "application/json")])
        // Both creates answer the new payment's `payment_id` (§2.4), how a merchant run links it to the case.
        return self == .createPayment || self == .createPaymentV2 ? operation.creatingPayment(at: "payment_id", amount: "amount", currency: "currency") : operation
    }
}

/// The `auth:` overrides that sign a khipu request wrongly on purpose.
struct KhipuAuthOverrides {
    /// 2.0: `secret` (another secret), `receiverId` (another receiver), `tamper` (body or query members changed after
    /// signing), `omit` (no `Authorization` header).
    static let v2Keys = ["secret", "receiverId", "tamper", "omit"]
    /// 3.0: `apiKey` (another key), `omit` (no `x-api-key` header).
    static let v3Keys = ["apiKey", "omit"]

    var secret: String?
    var receiverId: String?
    var tamper: [String: Value] = [:]
    var apiKey: String?
    var omit = false

    init(parsing auth: Value?) throws {
        guard let auth, auth != .null else { return }
        guard let object = auth.objectValue else { throw ProviderError.invalidStep("'auth:' must be a mapping") }
        self.secret = object["secret"]?.stringValue
        self.receiverId = object["receiverId"].map(\.interpolated)
        self.apiKey = object["apiKey"]?.stringValue
        self.omit = object["omit"]?.boolValue ?? false
        if let tamper = object["tamper"] {
            guard let members = tamper.objectValue else {
                throw ProviderError.invalidStep("auth override 'tamper' must be a mapping of parameters to change after signing")
            }
            self.tamper = members
        }
    }
}
