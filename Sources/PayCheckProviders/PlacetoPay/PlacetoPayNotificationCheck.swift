import PayCheckCore

/// The local `verifyNotification` and `signNotification` operations (providers.md §1.9); no HTTP.
///
/// ```yaml
/// - call: verifyNotification
///   with: { notification: "{{ received }}" }      # the body as the merchant received it
///   expect: { body: { valid: true, algorithm: sha256 } }
/// ```
///
/// The secret key defaults to the target's credentials; `with: { secretKey }` checks with another one. The
/// algorithm is `with: { algorithm }` when given (what the site is configured for), else read from the
/// signature: `sha256:` prefix → SHA-256, otherwise SHA-1. The answer never contains the secret.
enum PlacetoPayNotificationCheck {
    /// The signed fields of a notification.
    struct Fields {
        /// `requestId` exactly as received (decimal text).
        var requestId: String
        /// `status.status`.
        var status: String
        /// `status.date`, verbatim.
        var date: String
        /// `signature`, when present.
        var signature: String?
    }

    /// `verifyNotification`: body `{valid, algorithm, expected?}`, status 200.
    static func verify(_ parameters: Value, context: ProviderContext) throws -> Observation {
        let fields = try notificationFields(parameters, needsSignature: true)
        let signature = fields.signature ?? ""
        let secretKey = try secret(parameters, context: context)
        let algorithm = try algorithm(parameters) ?? (signature.hasPrefix(PlacetoPayNotificationSignature.sha256Prefix) ? .sha256 : .sha1)
        let valid = PlacetoPayNotificationSignature.verify(
            signature, requestId: fields.requestId, status: fields.status, date: fields.date, secretKey: secretKey,
            algorithm: algorithm)
        var body: [String: Value] = ["valid": .bool(valid), "algorithm": .string(algorithm.rawValue)]
        if !valid {
            body["expected"] = .string(
                PlacetoPayNotificationSignature.sign(
                    requestId: fields.requestId, status: fields.status, date: fields.date, secretKey: secretKey,
                    algorithm: algorithm))
        }
        return observation(body)
    }

    /// `signNotification`: body `{signature, algorithm}`, status 200. Takes `{notification}` or the fields
    /// `{requestId, status, date}` directly.
    static func sign(_ parameters: Value, context: ProviderContext) throws -> Observation {
        let fields = try notificationFields(parameters, needsSignature: false)
        let algorithm = try algorithm(parameters) ?? .sha256
        let signature = PlacetoPayNotificationSignature.sign(
            requestId: fields.requestId, status: fields.status, date: fields.date,
            secretKey: try secret(parameters, context: context), algorithm: algorithm)
        return observation(["signature": .string(signature), "algorithm": .string(algorithm.rawValue)])
    }

    /// Reads the notification from `with: { notification }` (an object, or its JSON text), or from `with:` itself.
    static func notificationFields(_ parameters: Value, needsSignature: Bool) throws -> Fields {
        var notification: Value? = PlacetoPayJSON.member(parameters, "notification") ?? (needsSignature ? nil : parameters)
        if case .string(let text)? = notification {
            guard let parsed = JSONText.parse(text) else {
                throw ProviderError.invalidStep("'notification' is text that is not JSON: \(Value.string(text).brief)")
            }
            notification = parsed
        }
        guard let notification, PlacetoPayJSON.object(notification) != nil else {
            throw ProviderError.invalidStep(
                "give the notification as received: 'with: { notification: { status: {status, date}, requestId, signature } }'")
        }
        let statusObject = PlacetoPayJSON.member(notification, "status")
        guard let requestId = PlacetoPayJSON.string(notification, "requestId") else {
            throw ProviderError.invalidStep("the notification has no 'requestId' (recurring-charge notifications are not signed this way, §1.9)")
        }
        guard let status = PlacetoPayJSON.string(statusObject, "status") ?? PlacetoPayJSON.scalarText(statusObject) else {
            throw ProviderError.invalidStep("the notification has no 'status.status'")
        }
        guard let date = PlacetoPayJSON.string(statusObject, "date") ?? PlacetoPayJSON.string(notification, "date") else {
            throw ProviderError.invalidStep("the notification has no 'status.date'")
        }
        let signature = PlacetoPayJSON.string(notification, "signature")
        if needsSignature, signature == nil { throw ProviderError.invalidStep("the notification has no 'signature'") }
        return Fields(requestId: requestId, status: status, date: date, signature: signature)
    }

    /// `with: { secretKey }` (registered as a secret) or the target's credential.
    private static func secret(_ parameters: Value, context: ProviderContext) throws -> String {
        if let given = PlacetoPayJSON.string(parameters, "secretKey") {
            context.addSecret(given)
            return given
        }
        guard let key = context.credentials["secretKey"] else {
            throw ProviderError.invalidStep("no PlacetoPay 'secretKey' credential to check the signature with (or give 'with: { secretKey }')")
        }
        return key
    }

    /// `with: { algorithm: sha256|sha1 }`, if given.
    private static func algorithm(_ parameters: Value) throws -> PlacetoPayHashAlgorithm? {
        guard let name = PlacetoPayJSON.string(parameters, "algorithm") else { return nil }
        guard let algorithm = PlacetoPayHashAlgorithm(rawValue: name.lowercased()) else {
            throw ProviderError.invalidStep("'algorithm' must be sha256 or sha1, got '\(name)'")
        }
        return algorithm
    }

    /// A local answer with status 200.
    private static func observation(_ body: [String: Value]) -> Observation {
        let value = Value.object(body)
        return Observation(status: 200, body: value, rawBody: JSONText.encode(value))
    }
}
