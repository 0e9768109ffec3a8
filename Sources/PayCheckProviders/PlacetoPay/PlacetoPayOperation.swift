import PayCheckCore

/// The `call:` operations of the PlacetoPay adapter (providers.md §1.4–§1.9).
enum PlacetoPayOperation: String, Sendable, CaseIterable {
    /// `POST {base}/api/session` — create a checkout session (§1.4).
    case createSession
    /// `POST {base}/api/session/{requestId}` — query a session, the source of truth (§1.5).
    case querySession
    /// `POST {base}/api/session/{requestId}/cancel` — the merchant cancels a pending session (§1.6).
    case cancelSession
    /// `POST {base}/api/transaction` — checkout, reauthorization, reverse, confirm, cancel (§1.7).
    case transaction
    /// `POST {base}/api/reverse` — the legacy reversal the PHP SDK still uses (§1.7).
    case reverse
    /// `POST {base}/api/collect` — charge a stored token without the payer (§1.8).
    case collect
    /// `POST {base}/api/instrument/invalidate` — invalidate a token or sub-token (OpenAPI file).
    case invalidateToken
    /// `POST {base}/api/gateway/token` — look up a tokenization by token or sub-token (OpenAPI file).
    case gatewayToken
    /// `POST {base}/api/gateway/information` — how a card or token would be processed (OpenAPI file).
    case gatewayInformation
    /// Local: check a received notification's `signature` with the secret key (§1.9).
    case verifyNotification
    /// Local: compute a notification `signature`, e.g. to build a tampered copy (§1.9).
    case signNotification

    /// The default `ipAddress` when a step gives none (required by createSession and collect, §1.4).
    static let defaultIPAddress = "127.0.0.1"

    /// The members of a `RedirectRequest` body (providers.md §1.4; OpenAPI `RedirectRequest`).
    static let redirectRequestFields = [
        "locale", "payer", "buyer", "payment", "subscription", "fields", "paymentMethod", "expiration", "returnUrl",
        "cancelUrl", "skipResult", "noBuyerFill", "captureAddress", "type", "autopay", "metadata",
    ]

    /// The HTTP declaration, or `nil` for the local operations. Every endpoint is `POST` with a JSON body that
    /// the signer completes with `auth` (§1.1, §1.2); a `with:` member set to `null` is left out, so
    /// `ipAddress: ~` sends a body without it.
    func declaration(userAgent: String) -> ProviderOperation? {
        typealias Parameter = ProviderOperation.Parameter
        let clientDefaults = [
            Parameter("ipAddress", default: .string(Self.defaultIPAddress)), Parameter("userAgent", default: .string(userAgent)),
        ]
        let parameters: [Parameter]
        let path: String
        switch self {
        case .createSession:
            path = "/api/session"
            parameters = Self.redirectRequestFields.map { Parameter($0) } + clientDefaults
        case .querySession:
            path = "/api/session/{requestId}"
            parameters = [Parameter("requestId", .path, required: true)]
        case .cancelSession:
            path = "/api/session/{requestId}/cancel"
            parameters = [Parameter("requestId", .path, required: true)]
        case .transaction:
            path = "/api/transaction"
            parameters = ["internalReference", "action", "amount", "authorization", "metadata"].map { Parameter($0) }
        case .reverse:
            path = "/api/reverse"
            parameters = [Parameter("internalReference")]
        case .collect:
            path = "/api/collect"
            parameters = ["locale", "payer", "buyer", "payment", "instrument", "fields", "metadata"].map { Parameter($0) } + clientDefaults
        case .invalidateToken:
            path = "/api/instrument/invalidate"
            parameters = [Parameter("locale"), Parameter("instrument", required: true)]
        case .gatewayToken:
            path = "/api/gateway/token"
            parameters = [Parameter("locale"), Parameter("instrument", required: true)]
        case .gatewayInformation:
            path = "/api/gateway/information"
            parameters = [Parameter("locale"), Parameter("instrument", required: true), Parameter("payment")]
        case .verifyNotification, .signNotification:
            return nil
        }
        // The members' shapes (§1.4); `transaction`'s `amount` is the `Amount` of a partial reverse or a reauthorization (§1.7).
        let operation = ProviderOperation(
            rawValue, method: "POST", path: path, parameters: parameters, bodyCodec: .json,
            authKeys: PlacetoPayAuthOverrides.keys, headers: [("Accept", "application/json")]
        ).shaping { PlacetoPayShapes.shape(of: $0, in: self) }
        // A session's id is its `requestId` (§1.4).
        return self == .createSession ? operation.creatingPayment(at: "requestId", amount: "payment.amount.total", currency: "payment.amount.currency") : operation
    }
}
