import Foundation
package import PayCheckCore

/// MIT Centro de Pagos, WebPay Plus (providers.md §5.2–§5.3, corrected by §5.11): `POST /gen` with the form field
/// `xml` = `<pgs><data0>…</data0><data>{MITCipher(<P>…</P>)}</data></pgs>`, answered by an encrypted `P_RESPONSE`.
///
/// The "signer" is the cipher: ``sign(_:context:)`` builds the `P` document from the step's parameters and the
/// credentials (with `auth:` overrides), encrypts it with a random IV from the runner and replaces the body with the
/// single form field; the shared form codec writes it. ``read(_:of:context:)`` decrypts the answer with the key.
package struct MITProvider: Provider {
    package init() {}

    /// `mit`.
    package let id = "mit"

    /// The WebPay Plus credentials (§6.1); `password` and `key` are secret.
    package var credentialFields: [CredentialField] {
        [
            CredentialField(name: "idCompany", secret: false, environmentVariable: "PAYCHECK_MIT_ID_COMPANY"),
            CredentialField(name: "idBranch", secret: false, environmentVariable: "PAYCHECK_MIT_ID_BRANCH"),
            CredentialField(name: "user", secret: false, environmentVariable: "PAYCHECK_MIT_USER"),
            CredentialField(name: "password", secret: true, environmentVariable: "PAYCHECK_MIT_PASSWORD"),
            CredentialField(name: "data0", secret: false, environmentVariable: "PAYCHECK_MIT_DATA0"),
            CredentialField(name: "key", secret: true, environmentVariable: "PAYCHECK_MIT_KEY"),
            // Suite mCommerce (optional: WebPay Plus runs without them, §6.1 — each MIT product has its own values).
            CredentialField(name: "merchant", secret: false, environmentVariable: "PAYCHECK_MIT_MERCHANT", required: false),
            CredentialField(name: "authKey", secret: true, environmentVariable: "PAYCHECK_MIT_AUTH_KEY", required: false),
            CredentialField(name: "xmlM", secret: false, environmentVariable: "PAYCHECK_MIT_XMLM", required: false),
            CredentialField(name: "mcommerceURL", secret: false, environmentVariable: "PAYCHECK_MIT_MCOMMERCE_URL", required: false),
        ]
    }

    /// Drift compares MIT's answers as the adapter reads them, decrypted (``Exchange``'s `readBody`): besides the
    /// common noise, the free-text `nb_response`/`nbResponse`/`nb_error` messages, and the folio and authorisation
    /// code each payment gets (§5.4–§5.8).
    package var driftNoise: [String] { Self.commonDriftNoise + ["nb_response", "nbResponse", "nb_error", "*folio*", "auth"] }

    /// The secret credentials (`password`, `key`, `authKey`), MIT's `pwd` element and a card's `cvv`.
    package var secretFieldNames: [String] { credentialFields.filter(\.secret).map(\.name) + ["pwd", "cvv"] }

    /// MIT's published sandbox merchant (§5.11 C1, E1), which the mock accepts.
    package var mockCredentials: [String: String] {
        [
            "idCompany": "SNBX", "idBranch": "01SNBXBRNCH", "user": "SNBXUSR01", "password": "SECRETO",
            "data0": "SNDBX123", "key": "5DCC67393750523CD165F17E1EFADD21",
            // Suite mCommerce: the affiliation, the 3DS `authKey` and the merchant's `xmlM` string are PayCheck's
            // sample values (MIT publishes none, §5.7); the services are the mock's own (`mcommerceURL` unset).
            "merchant": "1234567", "authKey": "SNBX3DSAUTHKEY2026", "xmlM": "XMLMSNBX0001",
        ]
    }

    /// The portal's sandbox host (§5.11 C1, C9); `/gen` is the operation's path.
    package var sandboxBaseURL: String { "https://wppsandbox.mit.com.mx" }

    /// `response` of a link's result, and the link itself while it waits (§5.3, §6).
    package var outcomeMapping: OutcomeMapping {
        typealias S = MITResponseState
        return OutcomeMapping([
            .init(S.pending, .pending, "link generated (cd_response success), the payer has not paid yet; no MIT state name, PayCheck's [I]"),
            .init(S.approved, .succeeded, "response approved (§5.3, §5.11 D1)"),
            .init(S.denied, .declined, "response denied, e.g. declined by the issuer (§5.11 D1)"),
            .init(S.error, .error, "response error with cd_error (§5.11 D1)"),
            .init(S.aprobada, .succeeded, "the legacy Cobro's Spanish Response (§5.4, §5.8)"),
            .init(S.denegada, .declined, "the legacy Cobro's Spanish Response (§5.4, §5.8)"),
            .init(S.success, .succeeded, "Suite mCommerce: controller ready, or card authenticated and tokenized (nbResponse success, §5.4–§5.5)"),
            .init(S.suiteError, .error, "Suite mCommerce SuiteError: a C/S/P/A/T code (§5.8)"),
        ])
    }

    /// The SDK's codes (§5.11 B1–B2, Spanish / English), `/gen`'s `cd_response` codes (§5.11 D6) and the clear-text answer.
    package var errorCatalog: ErrorCatalog { ErrorCatalog(MITErrorCodes.entries) }

    /// The `auth:` overrides: any credential, to send a wrong one.
    package static let authKeys = ["idCompany", "idBranch", "user", "password", "data0", "key"]

    /// The `url` children of the `P` document, in the XSD's order (§5.2), as `with:` keys.
    static let linkFields = [
        "reference", "amount", "moneda", "canal", "omitir_notif_default", "promociones", "id_promotion", "st_correo",
        "fh_vigencia", "mail_cliente", "prepago",
    ]

    package var operations: [ProviderOperation] {
        [
            ProviderOperation(
                "generateLink", method: "POST", path: "/gen",
                parameters: Self.linkFields.map { field in
                    switch field {
                    case "reference", "amount": .init(field, required: true)
                    case "moneda": .init(field, default: "MXN")
                    case "canal": .init(field, default: "W")
                    default: .init(field)
                    }
                } + [.init("datos_adicionales"), .init("version", default: "IntegraWPP"), .init("nb_fpago")],
                bodyCodec: .form, authKeys: Self.authKeys)
        ] + suiteOperationDeclarations
    }

    /// The payer on the hosted page, and the mock's site settings (the merchant's response URL).
    package var controlActions: [ControlAction] {
        [
            ControlAction(.payer, "pay", parameters: ["url", "result", "card", "cd_error", "nb_error"], required: ["url"]),
            ControlAction(
                .mock, "site", parameters: ["data0", "responseUrl", "strict", "wrapNotification", "operationTypes", "maxAmount", "maxAmountDigits", "spanishResponse"],
                required: ["data0"]),
            ControlAction(.mock, "forge", parameters: ["url"], required: ["url"], delivers: true),
        ]
    }

    /// `readNotification {form | strResponse}`: what a merchant's response URL does with MIT's POST (§5.3): decrypts
    /// `strResponse` with the key and maps `response` to the outcome.
    package var localActions: [ProviderAction.Kind: [ActionSpec]] {
        [.call: [ActionSpec("readNotification", parameters: ["form", "strResponse"])]]
    }

    package func performLocal(_ kind: ProviderAction.Kind, _ name: String, parameters: Value, context: ProviderContext) throws -> Observation {
        guard kind == .call, name == "readNotification" else {
            throw ProviderError.invalidStep("mit has no local \(kind.rawValue) action '\(name)'")
        }
        var fields: [String: String] = [:]
        if let form = parameters["form"]?.stringValue {
            for pair in FormText.decodePairs(form) { fields[pair.name] = pair.value }
        }
        if let value = parameters["strResponse"]?.stringValue { fields["strResponse"] = value }
        guard let blob = fields["strResponse"] else {
            throw ProviderError.invalidStep("'call: readNotification' needs 'with: { form }' (the posted form) or 'with: { strResponse }'")
        }
        var observation = Observation(status: 200, headers: [], body: nil, rawBody: blob)
        let plain: String
        do {
            plain = try MITCipher.decrypt(blob, keyHex: context.credentials["key"] ?? "")
        } catch {
            observation.body = .object(["valid": .bool(false), "reason": .string("\(error)")])
            return observation
        }
        guard let document = XMLValue.parse(plain), let result = document["CENTEROFPAYMENTS"] else {
            observation.body = .object(["valid": .bool(false), "reason": .string("not a CENTEROFPAYMENTS document")])
            return observation
        }
        observation.rawBody = plain
        observation.body = .object([
            "valid": .bool(true), "CENTEROFPAYMENTS": result, "wrapped": .bool(blob.contains("\r\n")),
            "strIdCompany": fields["strIdCompany"].map(Value.string) ?? .null, "strIdMerchant": fields["strIdMerchant"].map(Value.string) ?? .null,
        ])
        try map(result["response"]?.stringValue ?? "", reason: nil, in: "the notification", into: &observation)
        if let code = result["cd_error"]?.stringValue, !code.isEmpty, let entry = errorCatalog.entry(code) {
            observation.error = ErrorCatalog.observed(entry, message: result["nb_error"]?.stringValue)
        }
        return observation
    }

    /// The effective credentials of a request: the target's, with the step's `auth:` overrides.
    static func credentials(_ request: OutgoingRequest, _ base: [String: String]) -> (values: [String: String], overridden: [String]) {
        var values = base
        var overridden: [String] = []
        if case .object(let overrides)? = request.auth {
            for key in authKeys { if let value = overrides[key], value != .null { values[key] = value.interpolated; overridden.append(key) } }
        }
        return (values, overridden)
    }

    /// Builds `<P>`, encrypts it and makes it the `xml` form field (§5.2, §5.11 C3, C7).
    package func authorize(_ request: inout OutgoingRequest, context: ProviderContext) throws {
        if Self.suiteOperations.contains(request.operation.name) { return try signSuite(&request, context: context) }
        let (credentials, overridden) = Self.credentials(request, context.credentials)
        for key in overridden where key == "password" || key == "key" { if let value = credentials[key], !value.isEmpty { request.secrets.append(value) } }
        let body = request.body ?? [:]
        var business = MITXML.Element("business")
        business.add("id_company", credentials["idCompany"] ?? "")
        business.add("id_branch", credentials["idBranch"] ?? "")
        business.add("user", credentials["user"] ?? "")
        business.add("pwd", credentials["password"] ?? "")
        var url = MITXML.Element("url")
        for field in Self.linkFields { if let value = body[field], value != .null { url.add(field, value.interpolated) } }
        if let data = body["datos_adicionales"], data != .null { url.children.append(try Self.additionalData(data)) }
        var document = MITXML.Element("P")
        document.children.append(business)
        if let value = body["nb_fpago"], value != .null { document.add("nb_fpago", value.interpolated) }
        document.children.append(url)
        if let value = body["version"], value != .null { document.add("version", value.interpolated) }
        let sealed: String
        do {
            sealed = try MITCipher.encrypt(document.text, keyHex: credentials["key"] ?? "", iv: context.randomBytes(16))
        } catch {
            throw ProviderError.couldNotRun("MIT: \(error) — S002 'Excepción de llave' in MIT's SDK")
        }
        let envelope = "<pgs><data0>\(MITXML.escape(credentials["data0"] ?? ""))</data0><data>\(sealed)</data></pgs>"
        request.body = ["xml": .string(envelope)]
    }

    /// `datos_adicionales`: a list of `{id, label, value, display}` → `<data id display><label/><value/></data>` (§5.2,
    /// the portal's example). `layout: element` writes `<data><id/><display/><label/><value/></data>` instead, as MIT's
    /// 2022 .NET SDK (`[XmlElement] int id`) and PHP SDK serialize an item.
    static func additionalData(_ value: Value) throws -> MITXML.Element {
        guard case .array(let items) = value else {
            throw ProviderError.invalidStep("'datos_adicionales' of 'call: generateLink' must be a list of { id, label, value, display }")
        }
        var element = MITXML.Element("datos_adicionales")
        for (index, item) in items.enumerated() {
            guard case .object(let members) = item else {
                throw ProviderError.invalidStep("'datos_adicionales[\(index)]' must be a mapping { id, label, value, display }")
            }
            var data = MITXML.Element("data")
            let id = members["id"]?.interpolated ?? String(index + 1), display = members["display"]?.interpolated ?? "true"
            switch members["layout"]?.interpolated ?? "attribute" {
            case "attribute": data.attributes = [("id", id), ("display", display)]
            case "element":
                data.add("id", id)
                data.add("display", display)
            case let other:
                throw ProviderError.invalidStep("'datos_adicionales[\(index)].layout' is 'attribute' or 'element', got '\(other)'")
            }
            data.add("label", members["label"]?.interpolated ?? "")
            data.add("value", members["value"]?.interpolated ?? "")
            element.children.append(data)
        }
        return element
    }

    /// Decrypts `P_RESPONSE`: `success` → the link, pending; another `cd_response` → its catalog error with
    /// `nb_response`; a body that is not an encrypted blob → the clear-text error (§5.11 C8).
    package func read(_ response: HTTPResponseData, of operation: ProviderOperation, context: ProviderContext) throws -> Observation {
        if Self.suiteOperations.contains(operation.name) { return try readSuite(response, of: operation, context: context) }
        let text = response.text
        var observation = Observation(status: response.status, headers: response.headers, body: nil, rawBody: text)
        guard let plain = Self.open(text, keyHex: context.credentials["key"] ?? ""), let document = XMLValue.parse(plain) else {
            observation.body = .object(["text": .string(text)])
            observation.error = errorCatalog.entry(MITErrorCodes.clearText).map { ErrorCatalog.observed($0, message: text) }
            return observation
        }
        observation.body = document
        observation.rawBody = plain
        let code = document["P_RESPONSE"]?["cd_response"]?.stringValue ?? ""
        if code == "success" {
            try map(MITResponseState.pending.rawValue, reason: nil, in: "the generateLink answer", into: &observation)
        } else {
            guard let entry = errorCatalog.entry(code) else {
                throw ProviderError.nonConformance("MIT /gen answered cd_response '\(code)'", expected: "success or a code of the error catalog")
            }
            observation.error = ErrorCatalog.observed(entry, message: document["P_RESPONSE"]?["nb_response"]?.stringValue)
        }
        return observation
    }

    /// The payer's answer carries the result's `response`.
    package func readControl(_ observation: Observation, action: ControlAction) throws -> Observation {
        var observation = observation
        if action.kind == .payer, observation.status == 200, let response = observation.body?["response"]?.stringValue {
            try map(response, reason: nil, in: "the payer's answer", into: &observation)
        }
        return observation
    }

    /// The plaintext of an answer as MIT's SDKs read it (a `strResponse=` prefix, URL-encoding and line breaks
    /// tolerated, §5.11 C8), or nil when it is not an encrypted blob under this key.
    package static func open(_ text: String, keyHex: String) -> String? {
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if body.hasPrefix("strResponse=") { body.removeFirst("strResponse=".count) }
        if body.contains("%") { body = FormText.percentDecode(Array(body.utf8)) }
        return try? MITCipher.decrypt(body, keyHex: keyHex)
    }
}

/// A MIT state: `response` of a link's result (§5.3, §5.11 D1), the legacy Cobro's Spanish `Response` (§5.4, §5.8)
/// and Suite mCommerce's answers (§5.4–§5.8). `pending` (a link generated, not paid yet) and `suiteError` (a Suite
/// mCommerce SuiteError) are PayCheck's names, not MIT's. The adapter's table and the mock share it.
package enum MITResponseState: String, NativeState {
    case pending, approved, denied, error
    case aprobada = "Aprobada"
    case denegada
    case success, suiteError
}
