import Foundation
package import PayCheckCore

/// The Suite mCommerce flows of the seed guide (providers.md §5.4–§5.5, §5.8, corrected by §5.11 B1–B5) as `call:`
/// operations with the SDK's semantics:
///
/// - `initController {company, environment, context}` — `initOnEnvironment` (C001–C003);
/// - `payWithCompany {company, xmlM, tpPago, amount, urlResponse, referencia, moneda, date_hour, card}` — the legacy
///   "Cobro" `sndPayWithCompany:xmlA:xmlM:` (P001–P003), `xmlA` built and encrypted with the key here;
/// - `authenticate {tokenization, threeDS, card}` — `AuthenticateWithBeanTokenization:bean3DS:` (A001–A010);
/// - `payWithToken {tokenization, threeDS, card}` — `sndPayWithTokenWithBeanTokenization:bean3DS:` (T001–T014).
///
/// Like the SDK, the signer validates first (§5.11 B1): a missing field answers its code locally and nothing is sent.
/// Otherwise it posts, as MIT's web services do (§5.5), the form field `xml` = `<pgs><data0/><data>{MITCipher(JSON)}
/// </data></pgs>`; the answer is `<mpgs><response>true|false</response><nbResponse>{MITCipher(XML)}</nbResponse>
/// <cdError/><nbError/></mpgs>` (§5.11 B5's response shape). A request that gets no answer is S001, a key the cipher
/// refuses S002. The real mobile wire (RSA-wrapped session keys, actions 901–910, B5) is not reproduced.
extension MITProvider {
    /// The Suite mCommerce operation names.
    static let suiteOperations = ["initController", "payWithCompany", "authenticate", "payWithToken"]

    /// The `auth:` keys of the Suite operations: the credentials, and `serviceUrl` (the whole URL of the service,
    /// e.g. to point a step at a host that does not answer).
    static let suiteAuthKeys = authKeys + ["serviceUrl"]

    /// The `xmlA` fields of the guide, in its order (§5.4).
    static let xmlAFields = ["tpPago", "amount", "urlResponse", "referencia", "moneda", "date_hour"]

    /// The Suite operations (paths below the mCommerce base URL: PayCheck's choice, MIT publishes none, §5.5, §5.11 G).
    var suiteOperationDeclarations: [ProviderOperation] {
        let controller: [ProviderOperation.Parameter] = [.init("environment", default: "SANDBOX"), .init("context", default: "PayCheck")]
        let beans: [ProviderOperation.Parameter] = [
            // Beans are mappings of fields (or null for a missing bean): lint refuses anything else before a run.
            .init(MITSuiteRules.tokenization, default: .object([:])).expecting(.object),
            .init(MITSuiteRules.threeDS, default: .object([:])).expecting(.object), .init("card"),
        ]
        return [
            ProviderOperation(
                "initController", method: "POST", path: "/mcommerce/init", parameters: [.init("company")] + controller, bodyCodec: .form, authKeys: Self.suiteAuthKeys),
            ProviderOperation(
                "payWithCompany", method: "POST", path: "/mcommerce/pay",
                parameters: [.init("company"), .init("xmlM")]
                    + Self.xmlAFields.map { field in
                        switch field {
                        case "tpPago": .init(field, default: "C")
                        case "urlResponse": .init(field, default: "https://suitemcommerce.com")
                        case "moneda": .init(field, default: "MXN")
                        case "amount", "referencia": .init(field, required: true)
                        default: .init(field)
                        }
                    } + [.init("xmlA"), .init("xmlAEncoding", default: "base64"), .init("card")] + controller,
                bodyCodec: .form, authKeys: Self.suiteAuthKeys),
            ProviderOperation("authenticate", method: "POST", path: "/mcommerce/authenticate", parameters: beans + controller, bodyCodec: .form, authKeys: Self.suiteAuthKeys),
            ProviderOperation("payWithToken", method: "POST", path: "/mcommerce/payWithToken", parameters: beans + controller, bodyCodec: .form, authKeys: Self.suiteAuthKeys),
        ]
    }

    /// Validates like the SDK, then seals the JSON payload into the `pgs` envelope.
    func signSuite(_ request: inout OutgoingRequest, context: ProviderContext) throws {
        let (credentials, overridden) = Self.credentials(request, context.credentials)
        for key in overridden where key == "password" || key == "key" { if let value = credentials[key], !value.isEmpty { request.secrets.append(value) } }
        if let authKey = credentials["authKey"], !authKey.isEmpty { request.secrets.append(authKey) }
        if case .object(let overrides)? = request.auth, let url = overrides["serviceUrl"], url != .null {
            request.url = url.interpolated
        } else if let base = credentials["mcommerceURL"], !base.isEmpty {
            request.url = ProviderExecutor.join(base, request.operation.path)
        }
        let body = request.body ?? [:]
        let text = { (name: String) in body[name].flatMap { $0 == .null ? nil : $0.interpolated } }
        var payload: [String: Value] = [:]
        var local: String?
        switch request.operation.name {
        case "initController":
            let company = text("company") ?? credentials["idCompany"] ?? ""
            payload = ["company": .string(company), "environment": .string(text("environment") ?? ""), "context": .string(text("context") ?? "")]
            local = MITSuiteRules.lastFailing([("C001", !company.isEmpty)] + MITSuiteRules.controllerChecks(environment: text("environment"), context: text("context")))
        case "payWithCompany":
            let company = text("company") ?? credentials["idCompany"] ?? ""
            let xmlM = text("xmlM") ?? credentials["xmlM"] ?? ""
            let xmlA: String
            if let given = text("xmlA") {
                xmlA = given
            } else {
                var document = MITXML.Element("xml")
                for field in Self.xmlAFields {
                    let value = field == "date_hour" ? text(field) ?? Self.isoDateHour(context.now()) : text(field)
                    if let value { document.add(field, value) }
                }
                guard let encoding = MITCipher.Encoding(rawValue: text("xmlAEncoding") ?? "base64") else {
                    throw ProviderError.invalidStep("'xmlAEncoding' of 'call: payWithCompany' must be base64 or hex")
                }
                do {
                    xmlA = try MITCipher.encrypt(document.text, keyHex: credentials["key"] ?? "", iv: context.randomBytes(16), encoding: encoding)
                } catch {
                    xmlA = ""
                    local = "S002"
                }
            }
            payload = ["company": .string(company), "xmlA": .string(xmlA), "xmlM": .string(xmlM), "card": try Self.card(body["card"], into: &request)]
            // `sndPayWithCompany`'s own checks (§5.4): company, xmlA and xmlM must be given.
            local =
                local
                ?? MITSuiteRules.lastFailing(
                    [("P001", !company.isEmpty), ("P002", !xmlA.isEmpty), ("P003", !xmlM.isEmpty)]
                        + MITSuiteRules.controllerChecks(environment: text("environment"), context: text("context")))
        default:
            let isPayment = request.operation.name == "payWithToken"
            let tokenization = try Self.bean(body[MITSuiteRules.tokenization], MITSuiteRules.tokenization, credentials, payment: isPayment)
            var threeDS = try Self.bean(body[MITSuiteRules.threeDS], MITSuiteRules.threeDS, credentials, payment: false)
            if threeDS?["reference"] == nil, let reference = tokenization?["reference"] { threeDS?["reference"] = reference }
            for bean in [tokenization, threeDS] {
                for field in ["password", "authKey"] { if let value = bean?[field], value.count >= 4 { request.secrets.append(value) } }
            }
            local = MITSuiteRules.sdkCode(
                isPayment ? MITSuiteRules.tokenPayment : MITSuiteRules.authentication,
                beans: [MITSuiteRules.tokenization: tokenization, MITSuiteRules.threeDS: threeDS], missingBean: isPayment ? "T012" : "A008",
                environment: text("environment"), context: text("context"))
            let beanValue = { (bean: [String: String]?) in bean.map { Value.object($0.mapValues(Value.string)) } ?? .null }
            payload = [
                "urlResponse": "https://suitemcommerce.com", isPayment ? "paymentData" : "tokenData": beanValue(tokenization),
                "3dsData": beanValue(threeDS), "card": try Self.card(body["card"], into: &request),
            ]
        }
        payload["environment"] = .string(text("environment") ?? "")
        payload["context"] = .string(text("context") ?? "")
        if local == nil {
            do {
                let sealed = try MITCipher.encrypt(JSONText.encode(.object(payload)), keyHex: credentials["key"] ?? "", iv: context.randomBytes(16))
                let envelope = "<pgs><data0>\(MITXML.escape(credentials["data0"] ?? ""))</data0><data>\(sealed)</data></pgs>"
                request.body = ["xml": .string(envelope)]
                return
            } catch {
                local = "S002"  // "Excepción de llave": the cipher refused the key (§5.11 B1).
            }
        }
        request.body = [:]
        request.localAnswer = try suiteError(local ?? "S002", message: nil, sent: false)
    }

    /// A bean from `with:`: an omitted bean (or field) takes the target's values, `null` is a missing bean, a field
    /// given `null` or `""` is missing (the SDK's null and empty are both refused).
    static func bean(_ value: Value?, _ name: String, _ credentials: [String: String], payment: Bool) throws -> [String: String]? {
        guard let value, value != .null else { return nil }
        guard case .object(let members) = value else {
            throw ProviderError.invalidStep("'\(name)' must be a mapping of the bean's fields, or null for a missing bean")
        }
        var fields: [String: String] = [
            "branch": credentials["idBranch"] ?? "", "company": credentials["idCompany"] ?? "", "country": "MEX",
            "user": credentials["user"] ?? "", "password": credentials["password"] ?? "", "merchant": credentials["merchant"] ?? "",
            "currency": "MXN",
        ]
        if name == MITSuiteRules.threeDS { fields["authKey"] = credentials["authKey"] ?? "" } else { fields["operationType"] = "1" }
        let known = Set(fields.keys).union(["reference"] + (payment ? ["token", "amount"] : []))
        for (key, member) in members {
            guard known.contains(key) else {
                let near = Suggest.nearest(key, in: known.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
                throw ProviderError.invalidStep("unknown field '\(key)' of '\(name)'\(near); accepted: \(known.sorted().joined(separator: ", "))")
            }
            fields[key] = member == .null ? "" : member.interpolated
        }
        return fields
    }

    /// The card the payer types in the SDK's capture view (`{number, holder, expMonth, expYear, cvv}`), or null.
    static func card(_ value: Value?, into request: inout OutgoingRequest) throws -> Value {
        guard let value, value != .null else { return .null }
        guard case .object(let members) = value else {
            throw ProviderError.invalidStep("'card' must be a mapping { number, holder, expMonth, expYear, cvv }")
        }
        let allowed = ["number", "holder", "expMonth", "expYear", "cvv"]
        if let extra = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ProviderError.invalidStep("unknown field '\(extra)' of 'card'; accepted: \(allowed.joined(separator: ", "))")
        }
        if let number = members["number"]?.interpolated, number.count > 4 { request.secrets.append(number) }
        return .object(members.mapValues { .string($0.interpolated) })
    }

    /// `date_hour` of `xmlA`: ISO 8601 with the offset, e.g. `2013-07-10T14:49:24-05:00` (§5.4); UTC here.
    static func isoDateHour(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d+00:00", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
    }

    /// A `SuiteError`: the catalog entry of the code, outcome error (§5.8).
    func suiteError(_ code: String, message: String?, sent: Bool, status: Int? = nil) throws -> Observation {
        var observation = Observation(status: status, headers: [], body: nil, rawBody: "")
        let entry = errorCatalog.entry(code)
        observation.body = .object([
            "response": .bool(false), "cdError": .string(code), "nbError": .string(message ?? MITErrorCodes.spanish(code) ?? ""), "sent": .bool(sent),
        ])
        if let entry { observation.error = ErrorCatalog.observed(entry, message: message ?? MITErrorCodes.spanish(code)) }
        try map(MITResponseState.suiteError.rawValue, reason: nil, in: "a Suite mCommerce error", into: &observation)
        return observation
    }

    /// Reads `<mpgs>`: `response` false is a `SuiteError(cdError, nbError)` (the SDK passes the server's code
    /// through, §5.11 B1); true carries `nbResponse`, the encrypted result, decrypted into `result`. An empty body
    /// is S001 (the SDK's "empty HTTP body"), a body that is not `mpgs` S003.
    func readSuite(_ response: HTTPResponseData, of operation: ProviderOperation, context: ProviderContext) throws -> Observation {
        let text = response.text
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return try suiteError("S001", message: "Error de conexión: empty answer (HTTP \(response.status))", sent: true, status: response.status)
        }
        guard let document = XMLValue.parse(text), let envelope = document["mpgs"] else {
            var observation = try suiteError("S003", message: nil, sent: true, status: response.status)
            observation.rawBody = text
            return observation
        }
        var observation = Observation(status: response.status, headers: response.headers, body: nil, rawBody: text)
        let field = { (name: String) in envelope[name]?.stringValue ?? "" }
        guard field("response") == "true" else {
            let code = field("cdError")
            guard errorCatalog.entry(code) != nil else {
                throw ProviderError.nonConformance("MIT answered cdError '\(code)'", expected: "a code of the error catalog")
            }
            var refused = try suiteError(code, message: field("nbError").isEmpty ? nil : field("nbError"), sent: true, status: response.status)
            refused.rawBody = text
            refused.headers = response.headers
            return refused
        }
        guard let plain = try? MITCipher.decrypt(field("nbResponse"), keyHex: context.credentials["key"] ?? ""),
            let inner = XMLValue.parse(plain), case .object(let roots) = inner, var result = roots.values.first?.objectValue
        else {
            throw ProviderError.nonConformance("MIT's nbResponse does not decrypt to an XML document with the key", expected: "Base64(IV || AES-128-CBC(XML))")
        }
        if let reference = result["tkn_reference"] { result["tokenReference"] = reference }  // BeanTokenizeResponse (§5.11 B4)
        observation.rawBody = plain
        observation.readAs = plain
        observation.body = .object([
            "response": .bool(true), "cdError": .string(field("cdError")), "nbError": .string(field("nbError")), "result": .object(result), "sent": .bool(true),
        ])
        let state = result["Response"]?.stringValue ?? result["response"]?.stringValue ?? result["nbResponse"]?.stringValue ?? result["cd_response"]?.stringValue ?? ""
        try map(state, reason: nil, in: "the \(operation.name) answer", into: &observation)
        if let code = result["cd_error"]?.stringValue, !code.isEmpty, let entry = errorCatalog.entry(code) {
            observation.error = ErrorCatalog.observed(entry, message: result["nb_error"]?.stringValue)
        }
        return observation
    }

    /// No answer at all (refused connection, timeout): S001 "Error de conexión" (§5.11 B1).
    package func unanswered(_ failure: any Error, of operation: ProviderOperation, context: ProviderContext) -> Observation? {
        guard Self.suiteOperations.contains(operation.name), !Task.isCancelled else { return nil }
        var observation = try? suiteError("S001", message: "Error de conexión: \(failure)", sent: true)
        observation?.rawBody = "\(failure)"
        return observation
    }
}
