import Foundation
import PayCheckCore
import PayCheckProviders

/// A payment of the Yuno mock (providers.md §3.5, §3.6, §3.13 P1-6/P1-7).
struct YunoPayment: Sendable {
    /// `card_data.three_d_secure` of a card payment without 3-D Secure: an object whose members are all null, as in
    /// every Yuno example (yuno-docs `recipes/create-payment-response.md`; the OpenAPI file types it an object).
    static let noThreeDSecure = Value.object(
        Dictionary(
            uniqueKeysWithValues: [
                "token", "collect_url", "setup_reference_id", "developer_id", "solution_id", "code", "version",
                "electronic_commerce_indicator", "cryptogram", "transaction_id", "acs_id", "ds_id", "pares_status",
            ].map { ($0, Value.null) }))

    struct Transaction: Sendable {
        var id: String
        var type: String
        var status: String
        var amount: Double
        var responseCode: String?
        var responseMessage: String?
        var reason: String?
        var merchantReference: String?
        var createdAt: Date
        var updatedAt: Date
    }

    var id: String
    var body: [String: Value]
    var session: String
    var tokenValue: String
    /// `CARD`, `PIX` (async QR) or `APPLE_PAY` (wallet).
    var method: String
    var card: YunoTestCards.Profile
    var brand: String { card.brand }
    var iin: String
    var lfd: String
    var currency: String
    var value: Double
    var idempotencyKey: String
    var createdAt: Date
    var updatedAt: Date
    var status = YunoPaymentStatus.created
    var subStatus = YunoSubStatus.created
    var captured = 0.0
    var refunded = 0.0
    /// What the gateway approved (less than `value` after a partial approval).
    var approved = 0.0
    var capture = true
    var sdkActionRequired = false
    var transactions: [Transaction] = []
    /// The sub_status to return to after a dispute won or a refund retry that failed.
    var previousSubStatus: YunoSubStatus?
    /// A refund the provider has not confirmed yet (retry or confirmation pending).
    var pendingRefund: Double?
    /// The PIX QR (copy-and-paste code): the same on every reopening (seed guide, §3.13 P2-16).
    var qrCode: String?
    var expiresAt: Date?
    /// Whether the payer closed the SDK's screen (wallet sheet, QR) — what the SDK knows, not the API.
    var closedByUser = false
    /// The transaction code the test gateway answers with (§3.10).
    var code = "SUCCEEDED"
    /// The saved card's token: the one this payment used, or the one it created with `vault_on_success`.
    var vaultedToken: String?
    /// The customer (`customer_payer.id` or the session's `customer_id`).
    var customer: String?
    /// The card number (kept for vaulting; never in an answer).
    var number: String

    init(
        id: String, body: [String: Value], session: String, token: YunoState.Token, currency: String, value: Double,
        idempotencyKey: String, createdAt: Date
    ) {
        self.id = id
        self.body = body
        self.session = session
        self.tokenValue = token.token
        self.method = token.type
        self.card = token.card
        self.iin = String(token.number.prefix(8))
        self.lfd = String(token.number.suffix(4))
        self.number = token.number
        self.currency = currency
        self.value = value
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// The status × sub_status pair.
    var pair: YunoStatePair { YunoStatePair(status, subStatus) }

    /// `STATUS/SUB_STATUS`, as the journal and the answers spell it.
    var key: String { pair.key }

    mutating func move(_ status: YunoPaymentStatus, _ subStatus: YunoSubStatus, now: Date) {
        self.status = status
        self.subStatus = subStatus
        updatedAt = now
    }

    mutating func move(to pair: YunoStatePair, now: Date) { move(pair.status, pair.subStatus, now: now) }

    mutating func add(
        _ type: String, status: String, amount: Double, code: String?, id: String, now: Date, reason: String? = nil,
        merchantReference: String? = nil
    ) {
        transactions.append(
            Transaction(
                id: id, type: type, status: status, amount: amount, responseCode: code, responseMessage: code.map(YunoTestCards.message),
                reason: reason, merchantReference: merchantReference ?? body["merchant_reference"]?.stringValue, createdAt: now, updatedAt: now))
        updatedAt = now
    }

    /// Updates the latest transaction.
    mutating func updateLast(status: String, code: String?, now: Date) {
        guard !transactions.isEmpty else { return }
        transactions[transactions.count - 1].status = status
        transactions[transactions.count - 1].responseCode = code
        transactions[transactions.count - 1].responseMessage = code.map(YunoTestCards.message)
        transactions[transactions.count - 1].updatedAt = now
        updatedAt = now
    }

    /// The test gateway's transaction code → status/sub_status (§3.13 P2-24): `SUCCEEDED` → `SUCCEEDED/APPROVED`
    /// (`PENDING/AUTHORIZED` when `capture` is false, P2-22; `VERIFIED/VERIFIED` for a zero-amount verification),
    /// `ERROR` → `ERROR/ERROR`, every decline → `DECLINED/DECLINED`. The other transaction codes of §3.6 that the
    /// description trick accepts: `CHALLENGE_REQUIRED` → `PENDING/WAITING_ADDITIONAL_STEP` (3DS, the SDK must
    /// continue), `PENDING_PROVIDER_CONFIRMATION` → `PENDING/PENDING_PROVIDER_CONFIRMATION`, `FRAUD_VALIDATION` →
    /// `DECLINED/FRAUD_DECLINED`, `PROVIDER_TIMEOUT` → `ERROR/TIMEOUT`.
    mutating func applyGateway(now: Date) {
        let verify = value == 0 && body["payment_method"]?["detail"]?["card"]?["verify"]?.boolValue == true
        switch code {
        case "SUCCEEDED" where verify:
            move(.verified, .verified, now: now)
            updateLast(status: "SUCCEEDED", code: code, now: now)
        case "SUCCEEDED":
            approved = value
            if capture { captured = value }
            move(capture ? .succeeded : .pending, capture ? .approved : .authorized, now: now)
            updateLast(status: "SUCCEEDED", code: code, now: now)
        case "CHALLENGE_REQUIRED":
            sdkActionRequired = true
            move(.pending, .waitingAdditionalStep, now: now)
            updateLast(status: "PENDING", code: code, now: now)
        case "PENDING_PROVIDER_CONFIRMATION":
            move(.pending, .pendingProviderConfirmation, now: now)
            updateLast(status: "PENDING", code: code, now: now)
        case "FRAUD_VALIDATION":
            move(.declined, .fraudDeclined, now: now)
            updateLast(status: "DECLINED", code: code, now: now)
        case "PROVIDER_TIMEOUT":
            move(.error, .timeout, now: now)
            updateLast(status: "ERROR", code: code, now: now)
        case "ERROR":
            move(.error, .error, now: now)
            updateLast(status: "ERROR", code: code, now: now)
        default:
            move(.declined, .declined, now: now)
            updateLast(status: "DECLINED", code: code, now: now)
        }
    }

    /// The approval after a 3DS challenge, a fraud review or the provider's confirmation.
    mutating func approve(now: Date) {
        code = "SUCCEEDED"
        applyGateway(now: now)
    }

    /// The webhook trigger of the latest transaction (§3.13 P1-13's `payment_triggers`): its type, except a 3DS step
    /// or a fraud screening inside a payment flow, which reports as the flow (`PURCHASE`, or `AUTHORIZE` without
    /// capture) — Yuno's webhooks overview: `payment.purchase` "occurs when a payment is created or its status changes
    /// during a purchase flow".
    var trigger: String {
        let type = transactions.last?.type ?? "PURCHASE"
        guard ["THREE_D_SECURE", "FRAUD_SCREENING"].contains(type) else { return type }
        return status == .fraud ? "PURCHASE" : capture ? "PURCHASE" : "AUTHORIZE"
    }

    /// The `type_event` (§3.8): `payment.purchase`, `payment.capture`, ….
    var typeEvent: String { "payment." + trigger.lowercased() }

    static func stamp(_ date: Date) -> Value { .string(ISOTimestamp.format(date, fraction: .always)) }

    var paymentMethod: Value {
        var detail: [String: Value] = [
            "card": .null, "wallet": .null, "bnpl": .null, "bank_transfer": .null, "ticket": .null,
            "payment_link": .null,
        ]
        switch method {
        case "PIX":
            // The async details of §3.5: `payment_instruction`, `expires_at` (the QR's copy-and-paste code).
            detail["bank_transfer"] = .object([
                "provider_number": .string(String(id.prefix(8))), "payment_instruction": qrCode.map { .string($0) } ?? .null,
                "code": qrCode.map { .string($0) } ?? .null, "redirect_url": .null,
                "expires_at": expiresAt.map(Self.stamp) ?? .null,
            ])
        case "APPLE_PAY":
            detail["wallet"] = .object(["type": "APPLE_PAY", "brand": .string(brand), "lfd": .string(lfd)])
        default:
            detail["card"] = .object([
                "capture": .bool(capture), "installments": .int(1),
                "authorization_code": approved > 0 ? .string(String(id.prefix(6))) : "",
                "card_data": .object([
                    "brand": .string(brand), "iin": .string(iin), "lfd": .string(lfd), "issuer_name": .string(card.issuerName),
                    "type": .string(card.type), "category": .string(card.category), "three_d_secure": Self.noThreeDSecure,
                ]),
            ])
        }
        return .object([
            "token": .string(tokenValue), "vaulted_token": .string(vaultedToken ?? ""), "type": .string(method),
            "vault_on_success": body["payment_method"]?["vault_on_success"] ?? .bool(false),
            "payment_method_detail": .object(detail),
        ])
    }

    func json(_ transaction: Transaction) -> Value {
        .object([
            "id": .string(transaction.id), "type": .string(transaction.type), "status": .string(transaction.status),
            "category": .string(method == "PIX" ? "BANK_TRANSFER" : method == "APPLE_PAY" ? "WALLET" : "CARD"),
            "amount": .double(transaction.amount), "provider_id": "YUNO_TEST_PAYMENT_GATEWAY", "payment_method": paymentMethod,
            "response_code": transaction.responseCode.map { .string($0) } ?? .null,
            "response_message": transaction.responseMessage.map { .string($0) } ?? .null,
            "reason": transaction.reason.map { .string($0) } ?? .null, "description": body["description"] ?? .null,
            "merchant_reference": transaction.merchantReference.map { .string($0) } ?? .null,
            "provider_data": .object(["id": "YUNO_TEST_PAYMENT_GATEWAY", "transaction_id": .string(transaction.id)]),
            "connection_data": .object(["id": .null, "name": "Yuno Test Payment Gateway"]),
            "created_at": Self.stamp(transaction.createdAt), "updated_at": Self.stamp(transaction.updatedAt),
        ])
    }

    /// The short payment inside a cancel-or-refund or capture answer (§3.13 P1-9).
    var summary: Value {
        .object([
            "id": .string(id), "account_id": body["account_id"] ?? .null, "description": body["description"] ?? .null,
            "country": body["country"] ?? .null, "status": .string(status.rawValue), "sub_status": .string(subStatus.rawValue),
            "merchant_order_id": body["merchant_order_id"] ?? .null, "created_at": Self.stamp(createdAt),
            "updated_at": Self.stamp(updatedAt), "amount": amountJSON,
        ])
    }

    var amountJSON: Value {
        .object([
            "value": .double(value), "currency": .string(currency), "captured": .double(captured), "refunded": .double(refunded),
            "currency_conversion": .null,
        ])
    }

    /// The payment object. `retrieved`: the shape of `GET /payments/{id}` (`transactions` an array, with
    /// `idempotency_key`, §3.13 P1-7); otherwise the create shape (`transactions` the latest one, §3.13 P1-6).
    func json(retrieved: Bool) -> Value {
        var members: [String: Value] = [
            "id": .string(id), "account_id": body["account_id"] ?? .null, "description": body["description"] ?? .null,
            "country": body["country"] ?? .null, "status": .string(status.rawValue), "sub_status": .string(subStatus.rawValue),
            "merchant_order_id": body["merchant_order_id"] ?? .null, "merchant_reference": body["merchant_reference"] ?? .null,
            "created_at": Self.stamp(createdAt), "updated_at": Self.stamp(updatedAt),
            "amount": amountJSON,
            "checkout": .object(["session": .string(session), "sdk_action_required": .bool(sdkActionRequired)]),
            "payment_method": paymentMethod, "customer_payer": body["customer_payer"] ?? .null,
            "additional_data": body["additional_data"] ?? .null, "workflow": body["workflow"] ?? "SDK_CHECKOUT",
            "callback_url": body["callback_url"] ?? .null, "metadata": body["metadata"] ?? .array([]),
            "transactions_history": .array(transactions.dropLast().map(json)),
            "payment_link_id": "", "subscription_code": .null, "simplified_mode": .bool(false), "routing_rules": .null,
            "fraud_screening": body["fraud_screening"] ?? .null,
        ]
        if retrieved {
            members["transactions"] = .array(transactions.map(json))
            members["idempotency_key"] = .string(idempotencyKey)
            members["split_marketplace"] = .array([])
        } else {
            members["transactions"] = transactions.last.map(json) ?? .null
        }
        return .object(members)
    }
}
