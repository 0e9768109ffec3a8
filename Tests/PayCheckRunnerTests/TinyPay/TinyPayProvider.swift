import Crypto
import Foundation
import PayCheckCore
import PayCheckProviders

/// A test-only provider that proves the platform: a form-encoded API signed in headers, with one webhook that is
/// retried. It lives in the tests, touches no shared code, and passes the registry's conformance test.
///
/// - `createPayment`: `POST /v1/payments`, form body, `Idempotency-Key` header.
/// - `getPayment`: `GET /v1/payments/{id}`.
/// - Every request carries `X-TinyPay-Merchant` and `X-TinyPay-Signature`: lowercase hex of
///   HMAC-SHA256(apiKey, method + "\n" + path below the base URL + "\n" + body).
struct TinyPayProvider: Provider {
    /// `tinypay`.
    let id = "tinypay"

    /// The signature header.
    static let signatureHeader = "X-TinyPay-Signature"
    /// The merchant header.
    static let merchantHeader = "X-TinyPay-Merchant"

    /// `merchant` (public) and `apiKey` (secret).
    var credentialFields: [CredentialField] {
        [
            CredentialField(name: "merchant", secret: false, environmentVariable: "PAYCHECK_TINYPAY_MERCHANT"),
            CredentialField(name: "apiKey", secret: true, environmentVariable: "PAYCHECK_TINYPAY_API_KEY"),
        ]
    }

    /// The merchant the mock knows.
    var mockCredentials: [String: String] { ["merchant": "m-test", "apiKey": "tinypay-test-key-7c1e"] }

    /// No real sandbox exists.
    var sandboxBaseURL: String { "https://sandbox.tinypay.invalid" }

    /// A payment's `status` → outcome.
    var outcomeMapping: OutcomeMapping {
        OutcomeMapping([
            .init(TinyPayStatus.open, .pending, "created, not paid yet"),
            .init(TinyPayStatus.paid, .succeeded, "paid"),
            .init(TinyPayStatus.failed, .declined, "the payer's bank refused"),
            .init(TinyPayStatus.canceled, .canceled, "the payer canceled"),
        ])
    }

    /// `error.code` → class.
    var errorCatalog: ErrorCatalog {
        ErrorCatalog([
            .init("invalid_signature", .A, "the signature does not match", httpStatus: 401, source: "TinyPay"),
            .init("unknown_merchant", .C, "no such merchant", httpStatus: 401, source: "TinyPay"),
            .init("invalid_amount", .P, "amount must be a positive integer", httpStatus: 422, source: "TinyPay"),
            .init("not_found", .P, "no such payment", httpStatus: 404, source: "TinyPay"),
            .init("idempotency_conflict", .P, "the key was used for another request", httpStatus: 409, source: "TinyPay"),
        ])
    }

    /// The `auth:` overrides the signer understands.
    static let authKeys = ["apiKey", "merchant", "omitSignature"]

    /// The two operations.
    var operations: [ProviderOperation] {
        [
            ProviderOperation(
                "createPayment", method: "POST", path: "/v1/payments",
                parameters: [
                    .init("amount", required: true), .init("currency", required: true), .init("reference"), .init("webhookUrl"),
                ],
                bodyCodec: .form, idempotencyHeader: "Idempotency-Key", authKeys: Self.authKeys),
            ProviderOperation(
                "getPayment", method: "GET", path: "/v1/payments/{id}", parameters: [.init("id", .path, required: true)],
                bodyCodec: .none, authKeys: Self.authKeys),
        ]
    }

    /// The payer pays, and the delivery log of webhooks; `force` puts a payment in any state (for negative tests).
    var controlActions: [ControlAction] {
        [
            ControlAction(.payer, "pay", parameters: ["id", "result"], required: ["id"]),
            ControlAction(.mock, "force", parameters: ["id", "status"], required: ["id", "status"]),
        ]
    }

    /// Signs with the (possibly overridden) API key.
    func authorize(_ request: inout OutgoingRequest, context: ProviderContext) throws {
        var merchant = context.credentials["merchant"]
        if case .object(let overrides)? = request.auth, let value = overrides["merchant"]?.interpolated { merchant = value }
        guard let merchant else { throw ProviderError.couldNotRun("TinyPay needs 'merchant' and 'apiKey'") }
        request.setHeader(Self.merchantHeader, merchant)
    }

    /// Signs the method, the path as sent and the body's bytes.
    func sign(_ request: inout SignableRequest, context: ProviderContext) throws {
        var key = context.credentials["apiKey"]
        var omit = false
        if case .object(let overrides)? = request.auth {
            if let value = overrides["apiKey"]?.interpolated { key = value; request.secrets.append(value) }
            omit = overrides["omitSignature"] == .bool(true)
        }
        guard let key else { throw ProviderError.couldNotRun("TinyPay needs 'merchant' and 'apiKey'") }
        guard !omit else { return }
        let signature = Self.signature(key: key, method: request.method, path: request.path, body: request.body)
        request.setHeader(Self.signatureHeader, signature)
        request.secrets.append(signature)
    }

    /// The HMAC of one request.
    static func signature(key: String, method: String, path: String, body: [UInt8]) -> String {
        let message = Array((method + "\n" + path + "\n").utf8) + body
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Array(key.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Maps `status`, or the catalog entry of `error.code`.
    func read(_ response: HTTPResponseData, of operation: ProviderOperation) throws -> Observation {
        var observation = Observation(
            status: response.status, headers: response.headers, body: Observation.parseBody(response.text), rawBody: response.text)
        try mapBody(&observation, context: "the \(operation.name) answer")
        return observation
    }

    /// The payer's answer is a payment too.
    func readControl(_ observation: Observation, action: ControlAction) throws -> Observation {
        var observation = observation
        if action.kind == .payer, observation.status == 200 { try mapBody(&observation, context: "the payer's answer") }
        return observation
    }

    /// Fills outcome or error from a body.
    private func mapBody(_ observation: inout Observation, context: String) throws {
        guard case .object(let members)? = observation.body else { return }
        if case .object(let error)? = members["error"], let code = error["code"]?.interpolated {
            guard let entry = errorCatalog.entry(code) else {
                throw ProviderError.nonConformance("TinyPay answered error code '\(code)'", expected: "a code of the error catalog")
            }
            observation.error = ErrorCatalog.observed(entry, message: error["message"]?.interpolated)
        } else if case .string(let status)? = members["status"] {
            try map(status, reason: nil, in: context, into: &observation)
        }
    }
}

/// A TinyPay payment's `status`, shared by the table and the mock.
enum TinyPayStatus: String, NativeState {
    case open, paid, failed, canceled
}
