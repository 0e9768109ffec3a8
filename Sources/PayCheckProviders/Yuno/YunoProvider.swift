import Foundation
package import PayCheckCore

/// The Yuno API adapter (providers.md §3, corrected by §3.13): the `public-api-key` and `private-secret-key` headers
/// on every request (§3.2), JSON bodies, `X-Idempotency-Key` on payment creation (§3.2, §3.13 P1-5), the
/// `{code, messages}` error envelope (§3.7).
package struct YunoProvider: Provider {
    /// `yuno`.
    package let id = "yuno"

    /// Creates the adapter.
    package init() {}

    /// The two keys (§3.2) and the account id most bodies carry (§3.2).
    package var credentialFields: [CredentialField] {
        [
            // The public API key initialises Yuno's SDK inside the app (§3.1): published, yet redacted like every key.
            CredentialField(name: "publicApiKey", secret: true, environmentVariable: "PAYCHECK_YUNO_PUBLIC_API_KEY", publishable: true),
            CredentialField(name: "privateSecretKey", secret: true, environmentVariable: "PAYCHECK_YUNO_PRIVATE_SECRET_KEY"),
            CredentialField(name: "accountId", secret: false, environmentVariable: "PAYCHECK_YUNO_ACCOUNT_ID"),
        ]
    }

    /// Sandbox-shaped keys (`sandbox_` prefix, §3.13 P1-20) the mock knows, and its account.
    package var mockCredentials: [String: String] {
        [
            "publicApiKey": "sandbox_PayCheckYunoMockPublicKey01",
            "privateSecretKey": "sandbox_PayCheckYunoMockPrivateKey01",
            "accountId": "9a3f1c2e-4b5d-4e6f-8a7b-0c1d2e3f4a5b",
        ]
    }

    /// `https://api-sandbox.y.uno` (operations are under `/v1`, §3.1).
    package var sandboxBaseURL: String { "https://api-sandbox.y.uno" }
    /// Drift noise: the checkout and customer sessions are per run, like ids; the acquirer's authorization code is
    /// per payment (§3.6).
    package var driftNoise: [String] { Self.commonDriftNoise + ["*session", "authorization_code"] }

    package var outcomeMapping: OutcomeMapping { Self.mapping }
    package var errorCatalog: ErrorCatalog { Self.catalog }
    package var secretFieldNames: [String] {
        [
            "publicApiKey", "privateSecretKey", "public-api-key", "private-secret-key", "security_code", "hmac_client_secret", "secret",
            "api_key", "x-secret", "x-api-key",
        ]
    }

    /// `auth:` overrides: another key, a missing key, or the two keys swapped (issue #13 item 1).
    static let authKeys = ["publicApiKey", "privateSecretKey", "omit", "swap"]

    package var operations: [ProviderOperation] {
        typealias P = ProviderOperation.Parameter
        let session = P("checkout_session", .path, required: true)
        let paymentId = P("payment_id", .path, required: true)
        let keys = Self.authKeys
        let accept = [("Accept", "application/json")]
        let customer = [
            "merchant_customer_id", "merchant_customer_created_at", "first_name", "last_name", "email", "gender",
            "date_of_birth", "nationality", "country", "document", "phone", "billing_address", "shipping_address", "metadata",
        ]
        let createSession = [
            "account_id", "merchant_order_id", "payment_description", "country", "customer_id", "callback_url", "amount",
            "alternative_amount", "metadata", "workflow", "installments", "recurring_payment", "checkout_id",
        ]
        let payment = [
            "account_id", "description", "country", "merchant_order_id", "merchant_reference", "amount", "payment_method",
            "checkout", "customer_payer", "workflow", "additional_data", "callback_url", "subscription", "split_marketplace",
            "fraud_screening", "metadata",
        ]
        return
            ([
                ProviderOperation(
                    "createCustomer", method: "POST", path: "/v1/customers", parameters: customer.map { P($0) },
                    authKeys: keys, headers: accept),
                ProviderOperation(
                    "createCheckoutSession", method: "POST", path: "/v1/checkout/sessions",
                    parameters: createSession.map { P($0) }, bodyCodec: Self.json, authKeys: keys, headers: accept
                )
                // A merchant's checkout makes the session; the payment comes later, from the SDK's token (§3.5).
                .creatingPayment(at: "checkout_session", amount: "amount.value", currency: "amount.currency"),
                ProviderOperation(
                    "getCheckoutSession", method: "GET", path: "/v1/checkout/sessions/{checkout_session}", parameters: [session],
                    bodyCodec: .none, authKeys: keys, headers: accept),
                ProviderOperation(
                    "createOneTimeToken", method: "POST", path: "/v1/checkout/sessions/{checkout_session}/token",
                    parameters: [session] + ["payment_method", "account_id", "card_data", "three_d_secure"].map { P($0) },
                    authKeys: keys, headers: accept),
                ProviderOperation(
                    "createPayment", method: "POST", path: "/v1/payments", parameters: payment.map { P($0) }, bodyCodec: Self.json,
                    idempotencyHeader: "X-Idempotency-Key", authKeys: keys, headers: accept
                )
                .creatingPayment(at: "id", amount: "amount.value", currency: "amount.currency"),
                ProviderOperation(
                    "getPayment", method: "GET", path: "/v1/payments/{payment_id}",
                    parameters: [paymentId, P("raw_response", .query), P("transactions_history", .query)],
                    bodyCodec: .none, authKeys: keys, headers: accept),
                ProviderOperation(
                    "checkoutPaymentMethods", method: "GET", path: "/v1/checkout/sessions/{checkout_session}/payment-methods",
                    parameters: [session, P("category", .query)], bodyCodec: .none, authKeys: keys, headers: accept),
                ProviderOperation(
                    "getPaymentsByOrder", method: "GET", path: "/v1/payments",
                    parameters: [P("merchant_order_id", .query, required: true)], bodyCodec: .none, authKeys: keys, headers: accept),
                ProviderOperation(
                    "cancelOrRefund", method: "POST", path: "/v1/payments/{payment_id}/cancel-or-refund",
                    parameters: [paymentId] + ["reason", "amount", "description", "merchant_reference"].map { P($0) },
                    idempotencyHeader: "X-Idempotency-Key", authKeys: keys, headers: accept),
                ProviderOperation(
                    "capture", method: "POST", path: "/v1/payments/{payment_id}/transactions/{transaction_id}/capture",
                    parameters: [paymentId, P("transaction_id", .path, required: true)] + ["merchant_reference", "reason", "amount"].map { P($0) },
                    idempotencyHeader: "X-Idempotency-Key", authKeys: keys, headers: accept),
            ] + webhookOperations).map { $0.shaping(YunoShapes.shape(of:)) }
    }

    /// The webhooks API (§3.3, §3.13 P1-13): `account_id` in the body on create and update (filled from the
    /// credential when the step leaves it out) and in the query on list, read and delete (a `with:` key; the suites
    /// pass the account) — yuno-docs `reference/webhooks/index.mdx` and `openapi/webhooks/manage-webhooks.json`.
    var webhookOperations: [ProviderOperation] {
        typealias P = ProviderOperation.Parameter
        let keys = Self.authKeys
        let accept = [("Accept", "application/json")]
        let webhook = P("webhook_id", .path, required: true)
        let account = P("account_id", .query, required: true)
        let fields = [
            "name", "url", "state", "api_key", "secret", "hmac_client_secret", "oauth2_client_id", "oauth2_client_secret",
            "oauth2_token_url", "enrollment_triggers", "payment_triggers", "report_triggers", "subscription_triggers",
            "onboarding_triggers", "renewal_days",
        ]
        return [
            ProviderOperation(
                "createWebhook", method: "POST", path: "/v1/webhooks", parameters: (["account_id"] + fields).map { P($0) },
                bodyCodec: Self.json, authKeys: keys, headers: accept),
            ProviderOperation(
                "listWebhooks", method: "GET", path: "/v1/webhooks", parameters: [account], bodyCodec: .none, authKeys: keys,
                headers: accept),
            ProviderOperation(
                "getWebhook", method: "GET", path: "/v1/webhooks/{webhook_id}", parameters: [webhook, account], bodyCodec: .none,
                authKeys: keys, headers: accept),
            // WebhookUpdateInput requires account_id in the body (yuno-docs openapi/webhooks/manage-webhooks.json).
            ProviderOperation(
                "updateWebhook", method: "PATCH", path: "/v1/webhooks/{webhook_id}",
                parameters: [webhook] + (["account_id"] + fields + ["clear_renewal_days"]).map { P($0) },
                bodyCodec: Self.json, authKeys: keys, headers: accept),
            ProviderOperation(
                "deleteWebhook", method: "DELETE", path: "/v1/webhooks/{webhook_id}", parameters: [webhook, account],
                bodyCodec: .none, authKeys: keys, headers: accept),
        ]
    }

    /// The payer in the SDK and the mock's provider side (``YunoControlAction``).
    package var controlActions: [ControlAction] { YunoControlAction.all }

    /// `deeplink: yunoPaymentResult` (what the SDK's delegate reports, ``YunoSDKResult``) and `call: verifyWebhook`
    /// (the merchant's check of `x-hmac-signature`, §3.8).
    package var localActions: [ProviderAction.Kind: [ActionSpec]] {
        [
            .call: [ActionSpec("verifyWebhook", parameters: ["signature", "body", "secret"])],
            .deeplink: [ActionSpec("yunoPaymentResult", parameters: ["payment", "status", "sub_status", "method", "closed_by_user", "http_status"])],
        ]
    }

    /// JSON, with `account_id` filled from the `accountId` credential when the step leaves it out (§3.2).
    static let json = ProviderOperation.BodyCodec.provider(contentType: "application/json")

    package func encodeBody(_ body: Value, for operation: ProviderOperation, credentials: [String: String]) throws -> [UInt8] {
        guard case .object(var members) = body else { throw ProviderError.invalidStep("'\(operation.name)' needs a mapping body") }
        if members["account_id"] == nil, let account = credentials["accountId"] { members["account_id"] = .string(account) }
        return JSONText.encodeBytes(.object(members))
    }

    /// `public-api-key` + `private-secret-key`, or the step's `auth:` overrides.
    package func authorize(_ request: inout OutgoingRequest, context: ProviderContext) throws {
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
    package func read(_ response: HTTPResponseData, of operation: ProviderOperation) throws -> Observation {
        var observation = response.plainObservation
        guard let body = observation.body else { return observation }
        if response.status >= 400 {
            guard let code = body["code"]?.stringValue, let entry = errorCatalog.entry(code) else {
                throw ProviderError.nonConformance("Yuno answered HTTP \(response.status) without a known 'code'", expected: "an error envelope of §3.7")
            }
            let message = body["messages"]?.arrayValue?.compactMap(\.stringValue).joined(separator: "; ")
            observation.error = ErrorCatalog.observed(entry, message: message ?? entry.message)
            return observation
        }
        let payment: Value? =
            switch operation.name {
            case "createPayment": body
            case "getPayment": body["payment"] ?? body
            case "cancelOrRefund", "capture": body["payment"]
            case "getPaymentsByOrder": body.arrayValue?.last
            default: nil
            }
        if let payment, let status = payment["status"]?.stringValue {
            try map(status, reason: payment["sub_status"]?.stringValue, in: "the \(operation.name) answer (providers.md §3.6)", into: &observation)
        }
        return observation
    }

    /// A `payer:` or `mock: event` answer carries the payment after the action.
    package func readControl(_ observation: Observation, action: ControlAction) throws -> Observation {
        var observation = observation
        guard let status = observation.status, (200..<300).contains(status), let payment = observation.body?["payment"],
            let state = payment["status"]?.stringValue
        else { return observation }
        try map(
            state, reason: payment["sub_status"]?.stringValue, in: "the \(action.kind.rawValue): \(action.name) answer (providers.md §3.6)",
            into: &observation)
        return observation
    }

    /// `deeplink: yunoPaymentResult` and `call: verifyWebhook`.
    package func performLocal(_ kind: ProviderAction.Kind, _ name: String, parameters: Value, context: ProviderContext) throws -> Observation {
        switch (kind, name) {
        case (.deeplink, "yunoPaymentResult"):
            return try YunoSDKResult.observe(parameters)
        case (.call, "verifyWebhook"):
            guard let signature = parameters["signature"]?.stringValue, let body = parameters["body"]?.stringValue,
                let secret = parameters["secret"]?.stringValue
            else {
                throw ProviderError.invalidStep("'call: verifyWebhook' needs 'with: { signature, body, secret }' (x-hmac-signature, the raw body, the HMAC client secret)")
            }
            context.addSecret(secret)
            let valid = YunoWebhookSignature.verify(signature: signature, body: Array(body.utf8), secret: secret)
            let answer = Value.object(["valid": .bool(valid)])
            return Observation(status: nil, body: answer, rawBody: JSONText.encode(answer))
        default:
            throw ProviderError.invalidStep("Yuno has no local \(kind.rawValue) action '\(name)'")
        }
    }
}
