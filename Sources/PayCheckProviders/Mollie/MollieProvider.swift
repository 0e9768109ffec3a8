import Foundation
package import PayCheckCore

/// The Mollie Payments API v2 adapter (providers.md §4, corrected by §4.12): `Authorization: Bearer test_…`, JSON
/// requests, `application/hal+json` answers, `Idempotency-Key` on POST.
package struct MollieProvider: Provider {
    /// `mollie`.
    package let id = "mollie"

    /// Creates the adapter.
    package init() {}

    /// `apiKey` (secret): a `test_` key (§4.1); a `live_` key needs `--allow-live` (``liveCredentialWarning(_:)``).
    package var credentialFields: [CredentialField] {
        [CredentialField(name: "apiKey", secret: true, environmentVariable: "PAYCHECK_MOLLIE_API_KEY")]
    }

    /// The test key the PayCheck mock knows: `test_` + 30 alphanumerics, the shape the clients accept (§4.12 P1-12).
    package var mockCredentials: [String: String] { ["apiKey": "test_PayCheckMollieMockKey0123456789ab"] }

    /// `https://api.mollie.com` (operations are under `/v2`, §4.1).
    package var sandboxBaseURL: String { "https://api.mollie.com" }
    /// Drift noise: an error's `detail` is free text (§4.9).
    package var driftNoise: [String] { Self.commonDriftNoise + ["detail"] }

    package var outcomeMapping: OutcomeMapping { Self.mapping }
    package var errorCatalog: ErrorCatalog { Self.catalog }
    package var secretFieldNames: [String] { ["apiKey", "Authorization"] }

    package var operations: [ProviderOperation] {
        typealias P = ProviderOperation.Parameter
        let id = P("id", .path, required: true)
        let create = [
            "amount", "description", "redirectUrl", "cancelUrl", "webhookUrl", "method", "issuer", "metadata", "locale",
            "sequenceType", "captureMode", "customerId", "mandateId", "dueDate", "restrictPaymentMethodsToCountry",
            "billingAddress", "shippingAddress", "lines", "testmode",
        ].map { P($0) }
        let update = [
            "description", "redirectUrl", "cancelUrl", "webhookUrl", "metadata", "method", "locale", "dueDate", "issuer",
            "restrictPaymentMethodsToCountry", "billingAddress", "shippingAddress",
        ].map { P($0) }
        let methodQuery = ["include", "amount[value]", "amount[currency]", "locale", "sequenceType", "billingCountry", "resource"]
            .map { P($0, .query) }
        let keys = ["apiKey", "omit"]
        let headers = [("Accept", "application/hal+json")]
        return [
            ProviderOperation(
                "createPayment", method: "POST", path: "/v2/payments", parameters: create, bodyCodec: .json,
                idempotencyHeader: "Idempotency-Key", authKeys: keys, headers: headers
            ).creatingPayment(at: "id", amount: "amount.value", currency: "amount.currency"),
            ProviderOperation(
                "getPayment", method: "GET", path: "/v2/payments/{id}", parameters: [id, P("include", .query), P("embed", .query)],
                bodyCodec: .none, authKeys: keys, headers: headers),
            ProviderOperation(
                "listPayments", method: "GET", path: "/v2/payments", parameters: ["from", "limit", "sort"].map { P($0, .query) },
                bodyCodec: .none, authKeys: keys, headers: headers),
            ProviderOperation(
                "cancelPayment", method: "DELETE", path: "/v2/payments/{id}", parameters: [id], bodyCodec: .none,
                authKeys: keys, headers: headers),
            ProviderOperation(
                "updatePayment", method: "PATCH", path: "/v2/payments/{id}", parameters: [id] + update, bodyCodec: .json,
                authKeys: keys, headers: headers),
            ProviderOperation(
                "createRefund", method: "POST", path: "/v2/payments/{id}/refunds",
                parameters: [id] + ["amount", "description", "metadata"].map { P($0) }, bodyCodec: .json,
                idempotencyHeader: "Idempotency-Key", authKeys: keys, headers: headers),
            ProviderOperation(
                "listRefunds", method: "GET", path: "/v2/payments/{id}/refunds", parameters: [id] + ["from", "limit"].map { P($0, .query) },
                bodyCodec: .none, authKeys: keys, headers: headers),
            ProviderOperation(
                "getRefund", method: "GET", path: "/v2/payments/{id}/refunds/{refundId}", parameters: [id, P("refundId", .path, required: true)],
                bodyCodec: .none, authKeys: keys, headers: headers),
            // §4.12 2.6: a queued or pending refund is canceled with DELETE (204); mollie-api-php cancelForId().
            ProviderOperation(
                "cancelRefund", method: "DELETE", path: "/v2/payments/{id}/refunds/{refundId}",
                parameters: [id, P("refundId", .path, required: true)], bodyCodec: .none, authKeys: keys, headers: headers),
            // "List all refunds" of the account; mollie-api-php refunds->page().
            ProviderOperation(
                "listAllRefunds", method: "GET", path: "/v2/refunds", parameters: ["from", "limit"].map { P($0, .query) },
                bodyCodec: .none, authKeys: keys, headers: headers),
            ProviderOperation(
                "listMethods", method: "GET", path: "/v2/methods", parameters: methodQuery, bodyCodec: .none,
                authKeys: keys, headers: headers),
            ProviderOperation(
                "listAllMethods", method: "GET", path: "/v2/methods/all", parameters: methodQuery, bodyCodec: .none,
                authKeys: keys, headers: headers),
            ProviderOperation(
                "getMethod", method: "GET", path: "/v2/methods/{id}", parameters: [id, P("include", .query)],
                bodyCodec: .none, authKeys: keys, headers: headers),
        ].map { $0.shaping(MollieShapes.shape(of:)) }
    }

    /// The payer's choice on the test-mode checkout page and the mock's settings.
    package var controlActions: [ControlAction] { MollieControlAction.all }

    /// The return to the app through the demo's deep link (§4.0, §4.9).
    package var localActions: [ProviderAction.Kind: [ActionSpec]] {
        [.deeplink: [ActionSpec("return", parameters: ["url"])]]
    }

    /// A `live_` key moves real money (§4.1): `--target sandbox` refuses it unless `--allow-live`.
    package func liveCredentialWarning(_ credentials: [String: String]) -> String? {
        guard credentials["apiKey"]?.hasPrefix("live_") == true else { return nil }
        return "PAYCHECK_MOLLIE_API_KEY is a live_ key: its payments are real. Use a test_ key, or pass --allow-live"
    }

    /// `Authorization: Bearer <key>`, or the step's `auth:` overrides (`apiKey`, `omit`).
    package func authorize(_ request: inout OutgoingRequest, context: ProviderContext) throws {
        var key = context.credentials["apiKey"]
        var omit = false
        if let auth = request.auth, auth != .null {
            guard let object = auth.objectValue else { throw ProviderError.invalidStep("'auth:' must be a mapping") }
            if let other = object["apiKey"]?.stringValue { key = other; request.secrets.append(other) }
            omit = object["omit"]?.boolValue ?? false
        }
        guard !omit else { return }
        guard let key else { throw ProviderError.couldNotRun("Mollie needs the credential 'apiKey' (PAYCHECK_MOLLIE_API_KEY for the sandbox)") }
        request.setHeader("Authorization", "Bearer \(key)")
        request.secrets.append(key)
    }

    /// Payment-shaped answers map their `status`; error bodies `{status, title, detail, field?}` map to the catalog.
    package func read(_ response: HTTPResponseData, of operation: ProviderOperation) throws -> Observation {
        var observation = response.plainObservation
        guard let body = observation.body else { return observation }
        if response.status >= 400 {
            let code = body["status"]?.intValue.map(String.init) ?? String(response.status)
            guard let entry = errorCatalog.entry(code) else {
                throw ProviderError.nonConformance("Mollie answered HTTP \(response.status) with status '\(code)'", expected: "a status of §4.8")
            }
            var message = body["detail"]?.stringValue ?? entry.message
            if let field = body["field"]?.stringValue { message += " (field \(field))" }
            observation.error = ErrorCatalog.observed(entry, message: message)
            return observation
        }
        if body["resource"]?.stringValue == "payment", let status = body["status"]?.stringValue {
            try map(status, reason: nil, in: "the \(operation.name) answer (providers.md §4.9)", into: &observation)
        }
        return observation
    }

    /// The payer's choice answers with the payment.
    package func readControl(_ observation: Observation, action: ControlAction) throws -> Observation {
        var observation = observation
        guard let status = observation.status, (200..<300).contains(status),
            let state = observation.body?["payment"]?["status"]?.stringValue
        else { return observation }
        try map(state, reason: nil, in: "the \(action.kind.rawValue): \(action.name) answer", into: &observation)
        return observation
    }

    /// `deeplink: return {url}`: `mollie-checkout://payments/{id}` carries no status, so it is always `pending`
    /// and the app must re-query its backend (§4.9).
    package func performLocal(_ kind: ProviderAction.Kind, _ name: String, parameters: Value, context: ProviderContext) throws -> Observation {
        guard kind == .deeplink, name == "return" else {
            throw ProviderError.invalidStep("Mollie has no local \(kind.rawValue) action '\(name)'")
        }
        guard let url = parameters["url"]?.stringValue, url.hasPrefix("mollie-checkout://payments/") else {
            throw ProviderError.invalidStep("'deeplink: return' needs 'with: { url }', a mollie-checkout://payments/{id} link")
        }
        let id = String(url.dropFirst("mollie-checkout://payments/".count))
        let body = Value.object(["url": .string(url), "paymentId": .string(id), "status": .null])
        return Observation(status: nil, body: body, rawBody: JSONText.encode(body), outcome: .pending)
    }

    /// `status` → canonical outcome (§4.4, §4.9).
    package static let mapping: OutcomeMapping = {
        typealias S = MolliePaymentStatus
        return OutcomeMapping([
            .init(S.paid, .succeeded, "paid, final (§4.4)"),
            .init(S.authorized, .pending, "held for capture; pending until captured (§4.4, §4.9)"),
            .init(S.open, .pending, "created; the customer can still pay (§4.4)"),
            .init(S.pending, .pending, "the payment process started, not complete (§4.4)"),
            .init(S.failed, .declined, "failed and cannot be completed with another method (§4.4)"),
            .init(S.canceled, .canceled, "canceled by the customer or the merchant (§4.4)"),
            .init(S.expired, .expired, "abandoned or expired (§4.4)"),
        ])
    }()

    /// Error bodies by `status` (§4.8, §4.12 2.3).
    package static let catalog = ErrorCatalog([
        .init("400", .P, "Bad Request: an invalid list cursor, or an Idempotency-Key reused for another request", httpStatus: 400, source: "providers.md §4.12 2.3"),
        .init("401", .A, "Unauthorized Request: missing authentication, or failed to authenticate", httpStatus: 401, source: "providers.md §4.1, §4.12 2.3"),
        .init("404", .P, "Not Found: no entity with this id", httpStatus: 404, source: "providers.md §4.8"),
        .init("409", .P, "Conflict: an Idempotency-Key in flight, or a duplicate refund", httpStatus: 409, source: "providers.md §4.12 2.3"),
        .init("422", .P, "Unprocessable Entity: a field is missing or invalid, or the action is not possible", httpStatus: 422, source: "providers.md §4.8"),
        .init("429", .S, "Too Many Requests: the rate limit was exceeded", httpStatus: 429, source: "providers.md §4.8"),
        .init("503", .S, "Service Unavailable: the payment platform of this method is not available", httpStatus: 503, source: "providers.md §4.8"),
    ])
}

/// The `payer:` and `mock:` actions the Mollie mock serves.
///
/// | Action | Does |
/// |---|---|
/// | `payer: choose` `{id, status}` | on the test-mode checkout page (§4.7) the payer picks `paid`, `failed`, `canceled`, `expired`, `authorized` or `pending`; the answer carries the payment and the `redirectUrl` the customer is sent to |
/// | `mock: method` `{id, available}` | takes a method's payment platform down (creating a payment with it answers 503) or back up |
/// | `mock: webhooks` `{id?}` | every webhook attempt, with the receiver's answer |
package enum MollieControlAction {
    package static let all: [ControlAction] = [
        ControlAction(.payer, "choose", parameters: ["id", "status"], required: ["id", "status"]),
        ControlAction(.mock, "method", parameters: ["id", "available"], required: ["id"], runsAlone: true),
        ControlAction(.mock, "webhooks", parameters: ["id"]),
        // Calls the payment's webhookUrl now, whatever its status: a Mollie webhook carries only the id (§4.6), so
        // a call anyone can make; the merchant must fetch the payment to learn its status.
        ControlAction(.mock, "notify", parameters: ["id"], required: ["id"], delivers: true),
    ]
}

/// A Mollie payment's `status` (providers.md §4.4): the adapter's table and the mock share it.
package enum MolliePaymentStatus: String, NativeState {
    case open, pending, authorized, paid, failed, canceled, expired

    /// Final statuses never change again (§4.4).
    package var isFinal: Bool { [.paid, .canceled, .expired, .failed].contains(self) }
}
