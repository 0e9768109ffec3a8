import Foundation
import PayCheckCore

/// A payment of the Yuno mock (providers.md §3.5, §3.6, §3.13 P1-6/P1-7).
struct YunoPayment: Sendable {
    struct Transaction: Sendable {
        var id: String
        var type: String
        var status: String
        var amount: Double
        var responseCode: String
        var responseMessage: String
        var createdAt: Date
        var updatedAt: Date
    }

    var id: String
    var body: [String: Value]
    var session: String
    var tokenValue: String
    var brand: String
    var iin: String
    var lfd: String
    var currency: String
    var value: Double
    var idempotencyKey: String
    var createdAt: Date
    var updatedAt: Date
    var status = "CREATED"
    var subStatus = "CREATED"
    var captured = 0.0
    var refunded = 0.0
    var capture = true
    var sdkActionRequired = false
    var transactions: [Transaction] = []

    init(id: String, body: [String: Value], session: String, token: YunoState.Token, currency: String, value: Double,
         idempotencyKey: String, createdAt: Date) {
        self.id = id
        self.body = body
        self.session = session
        self.tokenValue = token.token
        self.brand = token.brand
        self.iin = String(token.number.prefix(8))
        self.lfd = String(token.number.suffix(4))
        self.currency = currency
        self.value = value
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// The test gateway's transaction code → status/sub_status (§3.13 P2-24): `SUCCEEDED` → `SUCCEEDED/APPROVED`
    /// (`PENDING/AUTHORIZED` when `capture` is false, P2-22), `ERROR` → `ERROR/ERROR`, every decline code →
    /// `DECLINED/DECLINED`.
    mutating func settle(code: String, capture: Bool, transactionId: String, now: Date) {
        self.capture = capture
        let type = capture ? "PURCHASE" : "AUTHORIZE"
        switch code {
        case "SUCCEEDED":
            (status, subStatus) = capture ? ("SUCCEEDED", "APPROVED") : ("PENDING", "AUTHORIZED")
            if capture { captured = value }
        case "ERROR":
            (status, subStatus) = ("ERROR", "ERROR")
        default:
            (status, subStatus) = ("DECLINED", "DECLINED")
        }
        let transactionStatus = code == "SUCCEEDED" ? (capture ? "SUCCEEDED" : "AUTHORIZED") : (code == "ERROR" ? "ERROR" : "DECLINED")
        transactions.append(Transaction(
            id: transactionId, type: type, status: transactionStatus, amount: value, responseCode: code,
            responseMessage: YunoTestCards.message(code), createdAt: now, updatedAt: now))
        updatedAt = now
    }

    static func stamp(_ date: Date) -> Value { .string(ISOTimestamp.format(date, fraction: .always)) }

    var paymentMethod: Value {
        .object([
            "token": .string(tokenValue), "vaulted_token": "", "type": "CARD",
            "vault_on_success": body["payment_method"]?["vault_on_success"] ?? .bool(false),
            "payment_method_detail": .object([
                "card": .object([
                    "capture": .bool(capture), "installments": .int(1), "authorization_code": status == "SUCCEEDED" || subStatus == "AUTHORIZED" ? .string(String(id.prefix(6))) : "",
                    "card_data": .object([
                        "brand": .string(brand), "iin": .string(iin), "lfd": .string(lfd), "issuer_name": .null, "type": "CREDIT",
                        "category": .null, "three_d_secure": .null,
                    ]),
                ]),
            ]),
        ])
    }

    func json(_ transaction: Transaction) -> Value {
        .object([
            "id": .string(transaction.id), "type": .string(transaction.type), "status": .string(transaction.status), "category": "CARD",
            "amount": .double(transaction.amount), "provider_id": "YUNO_TEST_PAYMENT_GATEWAY", "payment_method": paymentMethod,
            "response_code": .string(transaction.responseCode), "response_message": .string(transaction.responseMessage),
            "reason": .null, "description": body["description"] ?? .null, "merchant_reference": body["merchant_reference"] ?? .null,
            "provider_data": .object(["id": "YUNO_TEST_PAYMENT_GATEWAY", "transaction_id": .string(transaction.id)]),
            "connection_data": .object(["id": .null, "name": "Yuno Test Payment Gateway"]),
            "created_at": Self.stamp(transaction.createdAt), "updated_at": Self.stamp(transaction.updatedAt),
        ])
    }

    /// The payment object. `retrieved`: the shape of `GET /payments/{id}` (`transactions` an array, with
    /// `idempotency_key`, §3.13 P1-7); otherwise the create shape (`transactions` the latest one, §3.13 P1-6).
    func json(retrieved: Bool) -> Value {
        var members: [String: Value] = [
            "id": .string(id), "account_id": body["account_id"] ?? .null, "description": body["description"] ?? .null,
            "country": body["country"] ?? .null, "status": .string(status), "sub_status": .string(subStatus),
            "merchant_order_id": body["merchant_order_id"] ?? .null, "merchant_reference": body["merchant_reference"] ?? .null,
            "created_at": Self.stamp(createdAt), "updated_at": Self.stamp(updatedAt),
            "amount": .object(["value": .double(value), "currency": .string(currency), "captured": .double(captured),
                               "refunded": .double(refunded), "currency_conversion": .null]),
            "checkout": .object(["session": .string(session), "sdk_action_required": .bool(sdkActionRequired)]),
            "payment_method": paymentMethod, "customer_payer": body["customer_payer"] ?? .null,
            "additional_data": body["additional_data"] ?? .null, "workflow": body["workflow"] ?? "SDK_CHECKOUT",
            "callback_url": body["callback_url"] ?? .null, "metadata": body["metadata"] ?? .array([]),
            "transactions_history": .array(transactions.dropLast().map(json)),
            "payment_link_id": "", "subscription_code": .null, "simplified_mode": .bool(false), "routing_rules": .null,
            "fraud_screening": .null,
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
