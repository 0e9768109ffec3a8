import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// Everything one Yuno mock remembers (providers.md §3.11), behind the mutex of ``YunoStore``.
struct YunoState: Sendable {
    struct Customer { var id: String; var merchantCustomerId: String; var json: Value }
    struct Session {
        var id: String
        var json: Value
        var used = false
    }
    struct Token {
        var token: String
        var session: String
        /// `CARD`, `PIX` or `APPLE_PAY`.
        var type = "CARD"
        var number: String
        var card: YunoTestCards.Profile
        var used = false
        /// The `X-Idempotency-Key` of the create that spent it, for `yuno.idempotency-key-changed`.
        var spentUnder: String?
    }

    /// A card saved for a customer by a payment with `vault_on_success: true` (§3.5, §3.13 decision "saved cards").
    struct Vaulted {
        var token: String
        var customer: String
        var number: String
        var card: YunoTestCards.Profile
        var lastUsedAt: Date
    }

    /// How the mock's test gateway behaves (`mock: gateway`); where providers.md is silent these are choices, listed
    /// in docs/providers/yuno.md.
    struct Gateway {
        /// How long the gateway takes to answer a card payment: `0` answers inside the create call (§3.6 sync flow);
        /// longer leaves the payment `CREATED/CREATED` until the mock clock passes it.
        var latency: TimeInterval = 0
        /// `approve`, `retry` (`CAPTURE_RETRY_IN_PROCESS`) or `reject` (`REJECTED`, "incl. capture rejection", §3.6).
        var capture = "approve"
        /// `approve`, `retry` (`REFUND_RETRY_IN_PROCESS`) or `confirm` (`REFUNDED/PENDING_PROVIDER_CONFIRMATION`).
        var refund = "approve"
        /// `approve` or `confirm` (`CANCELED/PENDING_PROVIDER_CONFIRMATION`).
        var cancel = "approve"
        /// How long a PIX QR stays valid.
        var qrExpiry: TimeInterval = 3600
        /// How long a wallet payment waits for the PSP before `ERROR/TIMEOUT` (seed guide: "PSP timeout").
        var pspTimeout: TimeInterval = 600
        /// `true`: webhook URLs must be public, as on the real API (`WEBHOOK_URL_UNSAFE`, §3.13 decision); by default
        /// loopback and private addresses are accepted so the mock can reach local receivers.
        var strictWebhookURLs = false
        /// The most digits before the point of an amount: Yuno publishes no bound (§3.13 P2-17); 12 by default, a
        /// choice (`mock: gateway {max_amount_digits}`).
        var maxAmountDigits = AmountRule.defaultIntegerDigits
        /// The card data of a card Yuno's examples do not describe (``YunoTestCards/UnknownCard``).
        var unknownCard = YunoTestCards.UnknownCard()

        var json: Value {
            .object([
                "latency": .string("\(Value.format(latency))s"), "capture": .string(capture), "refund": .string(refund),
                "cancel": .string(cancel), "qr_expiry": .string("\(Value.format(qrExpiry))s"),
                "psp_timeout": .string("\(Value.format(pspTimeout))s"), "strict_webhook_urls": .bool(strictWebhookURLs),
                "max_amount_digits": .int(maxAmountDigits), "card_type": .string(unknownCard.type),
                "card_category": .string(unknownCard.category), "card_issuer": .string(unknownCard.issuerName),
            ])
        }
    }

    /// A webhook of the webhooks API (§3.13 P1-13).
    struct Hook {
        var id: String
        var json: [String: Value]
        var url: String { json["url"]?.stringValue ?? "" }
        var active: Bool { json["state"]?.stringValue == "ACTIVE" }
        var triggers: [String] { json["payment_triggers"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    }

    /// The countries of §3.4.
    static let countries: Set<String> = ["AR", "BO", "BR", "CL", "CO", "CR", "EC", "SV", "GT", "HN", "MX", "NI", "PA", "PY", "PE", "US", "UY"]

    var customers: [String: Customer] = [:]
    var sessions: [String: Session] = [:]
    var tokens: [String: Token] = [:]
    var payments: [String: YunoPayment] = [:]
    var vaulted: [String: Vaulted] = [:]
    var paymentOrder: [String] = []
    /// The ids of the payments of each `merchant_order_id`, in creation order: `GET /payments?merchant_order_id=` looks
    /// them up instead of scanning every payment (a scan was a fifth of the mock's CPU under load, docs/benchmarks.md).
    var paymentsByOrder: [String: [String]] = [:]
    var gateway = Gateway()
    /// The clock scope and reset count `gateway` was set under; another one means the defaults (``YunoContext/gatewaySettings()``).
    var gatewayEpoch = ""
    var hooks: [String: Hook] = [:]
    var hookOrder: [String] = []
    var nextHook = 12345
    /// Every webhook attempt (`mock: webhooks`).
    var webhookLog: [Value] = []
    let random: @Sendable () -> UInt64

    init(random: @escaping @Sendable () -> UInt64) { self.random = random }

    /// A version-4 UUID from the mock's random source.
    func uuid() -> String {
        var bytes = (0..<2).flatMap { _ in withUnsafeBytes(of: random()) { Array($0) } }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func isUUID(_ text: String) -> Bool { UUID(uuidString: text) != nil }

    static func text(_ body: [String: Value], _ key: String, _ range: ClosedRange<Int>) throws(YunoFailure) -> String {
        guard let text = body[key]?.stringValue, range.contains(text.count) else { throw .invalid() }
        return text
    }

    static func optionalText(_ body: [String: Value], _ key: String, _ range: ClosedRange<Int>) throws(YunoFailure) -> String? {
        guard let value = body[key], value != .null else { return nil }
        guard let text = value.stringValue, range.contains(text.count) else { throw .invalid() }
        return text
    }

    /// `account_id` must be a UUID (else `INVALID_REQUEST`) and the mock's account (else `INVALID_ACCOUNT_ID`, §3.7).
    static func account(_ body: [String: Value], expected: String) throws(YunoFailure) -> String {
        let account = try text(body, "account_id", 36...36)
        guard isUUID(account) else { throw .invalid() }
        guard account == expected else { throw YunoFailure(400, "INVALID_ACCOUNT_ID", "Account id is invalid") }
        return account
    }

    /// `{currency (3), value}` (§3.4, §3.13 P2-17): a malformed object is `INVALID_REQUEST`, a bad value
    /// ``amountValue(_:maxDigits:)``'s `INVALID_AMOUNT`.
    static func amount(_ value: Value?, maxDigits: Int) throws(YunoFailure) -> (currency: String, value: Double) {
        guard let object = value?.objectValue, let currency = object["currency"]?.stringValue, currency.count == 3,
            let given = object["value"], given != .null
        else { throw .invalid() }
        return (currency, try amountValue(given, maxDigits: maxDigits))
    }

    /// The one check of every Yuno amount value (sessions, payments, refunds, captures): a finite number (or numeric
    /// string) of 0 or more — 0 is a card verification (§3.6 `VERIFIED`) — that is a multiple of 0.0001, i.e. at most
    /// 4 decimals (§3.13 P2-17), with at most `maxDigits` digits before the point (the gateway's
    /// `max_amount_digits`: Yuno documents no bound, 12 by default, docs/providers/yuno.md); else 400
    /// `INVALID_AMOUNT` "Invalid amount" (§3.7), so `1e308` and `1e-300` are refused.
    static func amountValue(_ value: Value, maxDigits: Int = AmountRule.defaultIntegerDigits) throws(YunoFailure) -> Double {
        let rule = AmountRule(maxIntegerDigits: maxDigits, maxFractionDigits: 4, allowsZero: true)
        guard rule.check(value) == nil, let number = value.numberValue else {
            throw YunoFailure(400, "INVALID_AMOUNT", "Invalid amount")
        }
        return number
    }

    /// `POST /customers` → 201 (§3.13 P1-10): duplicate `merchant_customer_id` → `CUSTOMER_ID_DUPLICATED`.
    mutating func createCustomer(_ body: [String: Value], now: Date) throws(YunoFailure) -> Value {
        let merchantId = try Self.text(body, "merchant_customer_id", 3...255)
        for key in ["first_name", "last_name", "email"] { _ = try Self.optionalText(body, key, 3...255) }
        // gender is one of M, F, NB, NA, NK, U (providers.md §3.13 P1-10).
        if let gender = try Self.optionalText(body, "gender", 1...2), !["M", "F", "NB", "NA", "NK", "U"].contains(gender) { throw .invalid() }
        guard !customers.values.contains(where: { $0.merchantCustomerId == merchantId }) else {
            throw YunoFailure(400, "CUSTOMER_ID_DUPLICATED", "Customer id duplicated")
        }
        let id = uuid()
        var json: [String: Value] = [:]
        for key in [
            "merchant_customer_id", "first_name", "last_name", "email", "gender", "date_of_birth", "nationality", "country",
            "document", "phone", "billing_address", "shipping_address", "merchant_customer_created_at",
        ] {
            json[key] = body[key] ?? .null
        }
        if let metadata = body["metadata"] { json["metadata"] = metadata }
        let stamp = Value.string(ISOTimestamp.format(now, fraction: .always))
        json["id"] = .string(id)
        json["created_at"] = stamp
        json["updated_at"] = stamp
        customers[id] = Customer(id: id, merchantCustomerId: merchantId, json: .object(json))
        return .object(json)
    }

    /// `POST /checkout/sessions` → 200 with `checkout_session` (§3.4, §3.13 P1-1); an unknown `customer_id` is
    /// `CUSTOMER_NOT_FOUND` (§3.13 P1-11).
    mutating func createSession(_ body: [String: Value], account: String, now: Date) throws(YunoFailure) -> Value {
        _ = try Self.account(body, expected: account)
        let order = try Self.text(body, "merchant_order_id", 3...255)
        let description = try Self.text(body, "payment_description", 3...255)
        let country = try Self.text(body, "country", 2...2)
        guard Self.countries.contains(country) else { throw .invalid() }
        var customer: Value = .null
        if let given = try Self.optionalText(body, "customer_id", 36...36) {
            guard customers[given] != nil else { throw YunoFailure(400, "CUSTOMER_NOT_FOUND", "Customer not found.") }
            customer = .string(given)
        }
        var amount: Value = .null
        if let given = body["amount"], given != .null {
            let (currency, value) = try Self.amount(given, maxDigits: gateway.maxAmountDigits)
            amount = .object(["currency": .string(currency), "value": .double(value)])
        }
        let workflow = try Self.optionalText(body, "workflow", 1...32) ?? "SDK_CHECKOUT"
        guard ["SDK_CHECKOUT", "CHECKOUT", "SDK_SEAMLESS"].contains(workflow) else { throw .invalid() }
        let id = uuid()
        var callback: Value = .null
        if let url = try Self.optionalText(body, "callback_url", 3...526) {
            callback = .string(url + (url.contains("?") ? "&" : "?") + "checkoutSession=" + id)
        }
        // Absent customer_id and amount are left out (no Yuno example shows them null; the update example omits
        // customer_id); an absent callback_url is null, as Yuno's own update-checkout-session example shows it.
        var json: [String: Value] = [
            "merchant_order_id": .string(order), "country": .string(country), "payment_description": .string(description),
            "callback_url": callback,
            "created_at": .string(ISOTimestamp.format(now, fraction: .always)), "metadata": body["metadata"] ?? .null,
            "workflow": .string(workflow), "installments": .object(["plan_id": .null, "plan": .null]),
            "checkout_id": body["checkout_id"] ?? .string(uuid()),
        ]
        if customer != .null { json["customer_id"] = customer }
        if amount != .null { json["amount"] = amount }
        sessions[id] = Session(id: id, json: .object(json))
        var created = json
        created["checkout_session"] = .string(id)
        return .object(created)
    }

    /// `GET /checkout/sessions/{id}`: `id` and `used` instead of `checkout_session` (§3.13 P1-1).
    func session(_ id: String) throws(YunoFailure) -> Value {
        guard let session = sessions[id], case .object(var json) = session.json else {
            throw YunoFailure(400, "CHECKOUT_SESSION_NOT_FOUND", "Checkout session not found or inactive")
        }
        json["id"] = .string(id)
        json["used"] = .bool(session.used)
        return .object(json)
    }

    /// `POST /checkout/sessions/{id}/token` → 201 (§3.13 P1-3): what the SDK does with what the payer chose — a card
    /// typed in, a PIX QR (Brazil only; elsewhere `UNAVAILABLE_PAYMENT_METHOD`, §3.7) or an Apple Pay sheet.
    mutating func createToken(session id: String, _ body: [String: Value]) throws(YunoFailure) -> Value {
        guard let session = sessions[id], !session.used else {
            throw YunoFailure(400, "CHECKOUT_SESSION_NOT_FOUND", "Checkout session not found or inactive")
        }
        guard let method = body["payment_method"]?.objectValue else { throw .invalid() }
        let type = method["type"]?.stringValue ?? "CARD"
        let country = session.json["country"] ?? .null
        let token = uuid()
        switch type {
        case "CARD":
            break
        case "PIX", "APPLE_PAY":
            if type == "PIX", country.stringValue != "BR" {
                throw YunoFailure(400, "UNAVAILABLE_PAYMENT_METHOD", "Payment method not available")
            }
            let wallet = type == "APPLE_PAY" ? "4507990000000002" : ""
            tokens[token] = Token(
                token: token, session: id, type: type, number: wallet,
                card: type == "APPLE_PAY"
                    ? YunoTestCards.profile(wallet, unknown: gateway.unknownCard)
                    : YunoTestCards.Profile(brand: "", type: "", category: "", issuerName: ""))
            return .object([
                "token": .string(token), "vaulted_token": .null, "vault_on_success": .bool(false), "type": .string(type),
                "card_data": .null, "customer": .null, "installment": .null, "country": country, "customer_session": .null,
            ])
        default:
            throw YunoFailure(400, "UNAVAILABLE_PAYMENT_METHOD", "Payment method not available")
        }
        guard let card = method["card"]?.objectValue,
            let number = card["number"]?.stringValue, (13...19).contains(number.count), number.allSatisfy(\.isNumber),
            let month = card["expiration_month"]?.intValue, (1...12).contains(month),
            let year = card["expiration_year"]?.intValue, card["security_code"]?.stringValue != nil
        else { throw .invalid() }
        let profile = YunoTestCards.profile(number, unknown: gateway.unknownCard)
        tokens[token] = Token(token: token, session: id, number: number, card: profile)
        // A string in the schema: empty when the SDK was given no holder's name (§3.13; the OpenAPI file types it string).
        let holder = card["holder_name"].flatMap { $0 == .null ? nil : $0 } ?? .string("")
        return .object([
            "token": .string(token), "vaulted_token": .null, "vault_on_success": method["vault_on_success"] ?? .bool(false),
            "type": "CARD",
            "card_data": .object([
                "holder_name": holder, "iin": .string(String(number.prefix(8))), "lfd": .string(String(number.suffix(4))),
                "number_length": .int(number.count), "security_code_length": .int(card["security_code"]?.stringValue?.count ?? 3),
                "brand": .string(profile.brand), "type": .string(profile.type), "category": .string(profile.category),
                "issuer_name": .string(profile.issuerName), "issuer_code": .null,
                "fingerprint": .string(uuid()), "country_code": profile.countryCode.map { .string($0) } ?? country,
                "expiration_month": .int(month), "expiration_year": .int(year),
            ]),
            "customer": .null, "installment": .null, "country": country, "customer_session": .null,
        ])
    }

    /// `GET /checkout/sessions/{id}/payment-methods`: a bare array (§3.13 P1-2, the docs example wins over yuno-mcp's
    /// `{payment_methods}`), note the key `sdk_required_action`. Cards and Apple Pay everywhere, PIX in Brazil.
    func paymentMethods(session id: String) throws(YunoFailure) -> Value {
        guard let session = sessions[id] else {
            throw YunoFailure(400, "CHECKOUT_SESSION_NOT_FOUND", "Checkout session not found or inactive")
        }
        var methods: [(String, String, String)] = [("Card", "CARD", "CARD"), ("Apple Pay", "APPLE_PAY", "WALLET")]
        if session.json["country"]?.stringValue == "BR" { methods.append(("PIX", "PIX", "BANK_TRANSFER")) }
        // The session customer's saved cards first, each with its vaulted_token and card_data (§3.13 P1-2).
        let customer = session.json["customer_id"]?.stringValue
        let saved: [Value] = vaulted.values.filter { $0.customer == customer }.sorted { $0.token < $1.token }.map { card in
            .object([
                "name": .string("\(card.card.brand) ****\(card.number.suffix(4))"), "vaulted_token": .string(card.token),
                "description": .string(card.card.brand), "type": "CARD", "category": "CARD",
                "icon": .string("https://icons.prod.y.uno/\(card.card.brand.lowercased()).png"),
                "last_successfully_used": .bool(true), "last_successfully_used_at": YunoPayment.stamp(card.lastUsedAt),
                "checkout": .object([
                    "session": .string(id), "sdk_required_action": .bool(false),
                    "conditions": .object(["enabled": .bool(true), "rules": .array([])]),
                ]),
                "card_data": .object([
                    "iin": .string(String(card.number.prefix(8))), "lfd": .string(String(card.number.suffix(4))),
                    "expiration_month": .int(11), "expiration_year": .int(28), "number_length": .int(card.number.count),
                    "security_code_length": .int(3), "brand": .string(card.card.brand), "issuer": .string(card.card.issuerName),
                    "issuer_code": .null, "category": .string(card.card.category), "type": .string(card.card.type),
                ]),
                "preferred": .bool(false),
            ])
        }
        return .array(
            saved
                + methods.map { name, type, category in
                    .object([
                        "name": .string(name), "vaulted_token": .null, "description": .string(name), "type": .string(type),
                        "category": .string(category), "icon": .string("https://icons.prod.y.uno/\(type.lowercased()).png"),
                        "last_successfully_used": .bool(false), "last_successfully_used_at": .null,
                        "checkout": .object([
                            "session": .string(id), "sdk_required_action": .bool(type != "CARD"),
                            "conditions": .object(["enabled": .bool(true), "rules": .array([])]),
                        ]),
                        "preferred": .bool(false),
                    ])
                })
    }

    /// Validates a create-payment body (§3.5, §3.13 P1-4, P2-17): a violation here is "rejected before processing",
    /// so it does not consume the idempotency key (§3.2).
    static func validatePayment(
        _ body: [String: Value], account: String, maxAmountDigits: Int = AmountRule.defaultIntegerDigits
    ) throws(YunoFailure) {
        _ = try Self.account(body, expected: account)
        _ = try text(body, "description", 3...255)
        _ = try text(body, "merchant_order_id", 3...255)
        _ = try optionalText(body, "merchant_reference", 3...255)
        guard let country = body["country"]?.stringValue, countries.contains(country) else { throw .invalid() }
        _ = try amount(body["amount"], maxDigits: maxAmountDigits)
        guard let method = body["payment_method"]?.objectValue else { throw .invalid() }
        // Card `installments`: 1–50 (§3.13 P2-17).
        if let installments = method["detail"]?["card"]?["installments"], installments != .null {
            guard let count = installments.wholeNumber, (1...50).contains(count) else { throw .invalid() }
        }
        let workflow = try optionalText(body, "workflow", 1...32) ?? "SDK_CHECKOUT"
        guard ["SDK_CHECKOUT", "CHECKOUT", "REDIRECT", "DIRECT", "SDK_SEAMLESS"].contains(workflow) else { throw .invalid() }
        if workflow == "SDK_CHECKOUT" || workflow == "SDK_SEAMLESS" || workflow == "CHECKOUT" {
            guard body["checkout"]?["session"]?.stringValue != nil else { throw .invalid() }
            // A one-time token, or a vaulted token of a saved card (36–64 characters, §3.13 P2-17).
            let token = method["token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? method["vaulted_token"]?.stringValue
            guard let token, (36...64).contains(token.count) else { throw .invalid() }
        }
    }

    /// Creates the payment (§3.5): the session must exist and be unused, the one-time token must be this session's
    /// and unused (a later reuse is 401 `INVALID_TOKEN`, §3.13 P1-12); a currency other than the session's is
    /// `CURRENCY_NOT_ALLOWED` (§3.7). Cards: the outcome comes from the test card, else the description (§3.10),
    /// answered at once or after the gateway latency; PIX: `READY_TO_PAY/CREATED` with a QR (§3.13 P2-23); Apple Pay:
    /// `PENDING/PENDING_PROVIDER_CONFIRMATION` while the wallet sheet waits for the PSP (seed guide).
    mutating func createPayment(_ body: [String: Value], idempotencyKey: String, now: Date) throws(YunoFailure) -> YunoPayment {
        let sessionId = body["checkout"]?["session"]?.stringValue ?? ""
        guard let session = sessions[sessionId] else {
            throw YunoFailure(400, "CHECKOUT_SESSION_NOT_FOUND", "Checkout session not found or inactive")
        }
        let customer = body["customer_payer"]?["id"]?.stringValue ?? session.json["customer_id"]?.stringValue
        let tokenId = body["payment_method"]?["token"]?.stringValue ?? ""
        let vaultedId = tokenId.isEmpty ? body["payment_method"]?["vaulted_token"]?.stringValue : nil
        let token: Token
        if let vaultedId {
            // A saved card: unknown → 401 INVALID_TOKEN; another customer's → 400 INVALID_CUSTOMER_FOR_TOKEN (§3.7).
            guard let saved = vaulted[vaultedId] else { throw YunoFailure(401, "INVALID_TOKEN", "Invalid Token.") }
            guard saved.customer == customer else {
                throw YunoFailure(400, "INVALID_CUSTOMER_FOR_TOKEN", "Invalid customer for token")
            }
            token = Token(token: "", session: session.id, number: saved.number, card: saved.card)
        } else {
            guard let found = tokens[tokenId], !found.used, found.session == session.id else {
                throw YunoFailure(401, "INVALID_TOKEN", "Invalid Token.")
            }
            token = found
        }
        let (currency, value) = try Self.amount(body["amount"], maxDigits: gateway.maxAmountDigits)
        if let expected = session.json["amount"]?["currency"]?.stringValue, expected != currency {
            throw YunoFailure(400, "CURRENCY_NOT_ALLOWED", "Currency not allowed")
        }
        if vaultedId == nil { tokens[tokenId]?.used = true }
        sessions[sessionId]?.used = true
        let description = body["description"]?.stringValue ?? ""
        let capture = body["payment_method"]?["detail"]?["card"]?["capture"]?.boolValue ?? true
        var payment = YunoPayment(
            id: uuid(), body: body, session: sessionId, token: token, currency: currency, value: value,
            idempotencyKey: idempotencyKey, createdAt: now)
        payment.capture = capture
        payment.vaultedToken = vaultedId
        payment.customer = customer
        payment.code = YunoTestCards.code(number: token.number) ?? YunoTestCards.code(description: description) ?? "SUCCEEDED"
        let transaction = uuid()
        switch token.type {
        case "PIX":
            payment.qrCode = "00020101021226850014br.gov.bcb.pix2563qr.y.uno/pix/" + payment.id + "5204000053039865802BR6304"
            payment.expiresAt = now.addingTimeInterval(gateway.qrExpiry)
            payment.sdkActionRequired = true
            payment.add("PURCHASE", status: "CREATED", amount: value, code: "SUCCEEDED", id: transaction, now: now)
            payment.move(.readyToPay, .created, now: now)
        case "APPLE_PAY":
            payment.sdkActionRequired = true
            payment.expiresAt = now.addingTimeInterval(gateway.pspTimeout)
            payment.add("PURCHASE", status: "PENDING", amount: value, code: "PENDING_PROVIDER_CONFIRMATION", id: transaction, now: now)
            payment.move(.pending, .pendingProviderConfirmation, now: now)
        default:
            if body["fraud_screening"]?["stand_alone"]?.boolValue == true {
                // A standalone fraud screening (§3.6 `FRAUD/FRAUD_VERIFIED`): no authorization.
                payment.add("FRAUD_SCREENING", status: "SUCCEEDED", amount: value, code: "SUCCEEDED", id: transaction, now: now)
                payment.move(.fraud, .fraudVerified, now: now)
            } else {
                let verify = value == 0 && body["payment_method"]?["detail"]?["card"]?["verify"]?.boolValue == true
                payment.add(verify ? "VERIFY" : capture ? "PURCHASE" : "AUTHORIZE", status: "CREATED", amount: value, code: nil, id: transaction, now: now)
                if gateway.latency <= 0 { payment.applyGateway(now: now) }
            }
        }
        vaultIfAsked(&payment, now: now)
        if let vaultedId, payment.status == .succeeded { vaulted[vaultedId]?.lastUsedAt = now }
        payments[payment.id] = payment
        paymentOrder.append(payment.id)
        if let order = payment.body["merchant_order_id"]?.stringValue { paymentsByOrder[order, default: []].append(payment.id) }
        return payment
    }

    /// `payment_method.vault_on_success: true` saves the card once the payment succeeds, is authorized or verified,
    /// for the payment's customer (`customer_payer.id` or the session's `customer_id`); the payment then carries the
    /// `vaulted_token` a later payment uses instead of a one-time token. Without a known customer nothing is saved.
    mutating func vaultIfAsked(_ payment: inout YunoPayment, now: Date) {
        guard payment.method == "CARD", payment.vaultedToken == nil,
            payment.body["payment_method"]?["vault_on_success"]?.boolValue == true,
            [YunoStatePair(.succeeded, .approved), YunoStatePair(.pending, .authorized), YunoStatePair(.verified, .verified)]
                .contains(payment.pair),
            let customer = payment.customer, customers[customer] != nil
        else { return }
        let id = uuid()
        vaulted[id] = Vaulted(token: id, customer: customer, number: payment.number, card: payment.card, lastUsedAt: now)
        payment.vaultedToken = id
    }

    func payment(_ id: String) throws(YunoFailure) -> YunoPayment {
        guard let payment = payments[id] else { throw YunoFailure(400, "PAYMENT_NOT_FOUND", "Payment not found") }
        return payment
    }
}
