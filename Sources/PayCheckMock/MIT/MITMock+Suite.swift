import Foundation
import PayCheckCore
import PayCheckProviders

/// The Suite mCommerce services of ``MITMock`` (providers.md §5.4–§5.5, §5.11 B1–B5), served at
/// `POST /mit/mcommerce/{init|pay|authenticate|payWithToken}`: the form field `xml` holds `<pgs><data0/><data/></pgs>`,
/// `data0` selects the merchant site, `data` is the AES-encrypted JSON payload (§5.5). The answer is
/// `<mpgs><response>true|false</response><nbResponse>{encrypted XML}</nbResponse><cdError/><nbError/></mpgs>`
/// (§5.11 B5); a refusal carries the code of the field that does not match the merchant, by the SDK's rule (every check
/// runs, the last failing wins, B1). An unknown `data0` or an undecryptable payload is answered in clear text (C8).
extension MITMock {
    /// The Suite state, inside the mock's one ``ProviderStateStore``.
    struct SuiteState: Sendable {
        /// Tokens by value.
        var tokens: [String: CardToken] = [:]
        /// The token of a card at a site, so tokenizing the same card again gives the same token (`data0|number`).
        var tokenOfCard: [String: String] = [:]
        /// References already charged with a token, per site (`data0|reference`): a reference is charged once (T007).
        var chargedReferences: Set<String> = []
        var nextToken = 1
    }

    /// A tokenized card.
    struct CardToken: Sendable {
        var number, holder, expMonth, expYear, data0, reference: String
    }

    /// What the mock's issuer does with a card (PayCheck's test cards; MIT publishes none for these flows, §5.11 E2).
    static func issuer(_ number: String) -> (response: MITResponseState, cdError: String, nbError: String) {
        switch number {
        case "4000000000000002": (.denied, "", "Transacción declinada por el banco emisor")
        case "4000000000000119": (.error, "06", "Error en la validación de la tarjeta")
        default: (.approved, "", "")
        }
    }

    /// The card whose 3DS authentication fails (`r3ds_authResult` N, §5.11 B1 → A010).
    static let failing3DSCard = "4000000000000101"
    /// The card the payer types when the step gives none.
    static let defaultCard = "5555555555554444"

    func answerSuite(_ service: String, form: String, now: Date) -> HTTPResponseData {
        let clear = { (text: String) in HTTPResponseData(status: 200, headers: [("Content-Type", "text/html;charset=UTF-8")], body: Array(text.utf8)) }
        guard let value = FormText.decodePairs(form).first(where: { $0.name == "xml" })?.value, let pgs = MITXML.inner("pgs", in: value) else {
            return clear("Error: the form field 'xml' with <pgs> is missing")
        }
        let data0 = MITXML.inner("data0", in: pgs)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let known = state.withState { $0.sites[data0] } ?? (data0 == credentials["data0"] ? Site() : nil)
        guard let site = known, let key = credentials["key"] else { return clear("Error: data0 desconocido") }
        guard let data = MITXML.inner("data", in: pgs), let plain = try? MITCipher.decrypt(data, keyHex: key),
            case .object(let payload)? = JSONText.parse(plain)
        else { return clear("Error: no se pudo descifrar data") }
        let text = { (name: String) in payload[name]?.stringValue ?? "" }
        let controller = MITSuiteRules.controllerChecks(environment: text("environment"), context: text("context"))
        let answer: Result<MITXML.Element, Refusal>
        switch service {
        case "init":
            answer = initController(payload, controller)
        case "pay":
            answer = pay(payload, key: key, site: site, controller, now: now)
        case "authenticate":
            answer = authenticate(payload, data0: data0, controller, now: now)
        case "payWithToken":
            answer = payWithToken(payload, data0: data0, site: site, controller, now: now)
        default:
            return HTTPResponseData(status: 404, headers: [("Content-Type", "text/plain")], body: Array("Not found: /mit/mcommerce/\(service)".utf8))
        }
        var out = "<mpgs>"
        switch answer {
        case .success(let inner):
            out += "<response>true</response><nbResponse>\((try? MITCipher.encrypt(inner.text, keyHex: key)) ?? "")</nbResponse><cdError/><nbError/>"
        case .failure(let refusal):
            out += "<response>false</response><nbResponse/><cdError>\(refusal.code)</cdError>"
            out += "<nbError>\(MITXML.escape(refusal.message ?? MITErrorCodes.spanish(refusal.code) ?? ""))</nbError>"
        }
        return HTTPResponseData(status: 200, headers: [("Content-Type", "text/xml;charset=UTF-8")], body: Array((out + "</mpgs>").utf8))
    }

    struct Refusal: Error {
        var code: String
        var message: String?
        init(_ code: String, _ message: String? = nil) {
            self.code = code
            self.message = message
        }
    }

    /// The refusal of the last failing check, or nil.
    static func refusal(_ results: [(code: String, passes: Bool)]) -> Refusal? {
        MITSuiteRules.lastFailing(results).map { Refusal($0) }
    }

    // MARK: - initOnEnvironment (C001–C003)

    func initController(_ payload: [String: Value], _ controller: [(code: String, passes: Bool)]) -> Result<MITXML.Element, Refusal> {
        let company = payload["company"]?.stringValue ?? ""
        if let refusal = Self.refusal([("C001", company == credentials["idCompany"])] + controller) { return .failure(refusal) }
        var inner = MITXML.Element("controller")
        inner.add("cd_response", MITResponseState.success.rawValue)
        inner.add("company", company)
        inner.add("environment", payload["environment"]?.stringValue ?? "")
        return .success(inner)
    }

    // MARK: - sndPayWithCompany (P001–P003)

    func pay(_ payload: [String: Value], key: String, site: Site, _ controller: [(code: String, passes: Bool)], now: Date) -> Result<MITXML.Element, Refusal> {
        let xmlA = payload["xmlA"]?.stringValue ?? ""
        var problem: String?
        var fields: [String: Value] = [:]
        // `xmlA` is the integrator's AES text: Base64, or the legacy hex variant (§5.1, §5.11 A5).
        let isHex = !xmlA.isEmpty && xmlA.allSatisfy(\.isHexDigit)
        if let plain = try? MITCipher.decrypt(xmlA, keyHex: key, encoding: isHex ? .hex : .base64) {
            // The guide's own example omits `</xml>` (§5.4): tolerated.
            let closed = plain.contains("</xml>") ? plain : plain + "</xml>"
            if let document = XMLValue.parse(closed)?["xml"]?.objectValue { fields = document } else { problem = "not an <xml> document" }
        } else {
            problem = "does not decrypt with the merchant's key"
        }
        if problem == nil { problem = Self.xmlAProblem(fields, maxAmountDigits: site.maxAmountDigits) }
        let results: [(code: String, passes: Bool)] = [
            ("P001", payload["company"]?.stringValue == credentials["idCompany"]), ("P002", problem == nil),
            ("P003", payload["xmlM"]?.stringValue == credentials["xmlM"]),
        ]
        if var refusal = Self.refusal(results + controller) {
            if refusal.code == "P002", let problem { refusal.message = "XML A invalido: \(problem)" }
            return .failure(refusal)
        }
        let card = Self.card(payload["card"])
        let (response, _, nbError) = Self.cardValid(card, now: now) ? Self.issuer(card.number) : (.error, "04", "04 -- Número de tarjeta inválido")
        var inner = MITXML.Element("RESPONSE")
        inner.add("Reference", fields["referencia"]?.stringValue ?? "")
        // The legacy Cobro's Spanish spelling when the site asks for it (§5.4, §5.8).
        let spelt = site.spanishResponse ? [MITResponseState.approved: .aprobada, .denied: .denegada][response] ?? response : response
        inner.add("Response", spelt.rawValue)
        inner.add("Auth", response == .approved ? nextFolio().suffix(6).description : "")
        inner.add("Error", nbError)
        inner.add("ccName", card.holder)
        inner.add("ccNum", String(card.number.suffix(4)))  // the last four digits only
        inner.add("Amount", fields["amount"]?.stringValue ?? "")
        inner.add("Type", Self.brand(card.number))
        return .success(inner)
    }

    /// What is wrong with the `xmlA` fields (§5.4), or nil.
    static func xmlAProblem(_ fields: [String: Value], maxAmountDigits: Int = AmountRule.defaultIntegerDigits) -> String? {
        let value = { (name: String) in fields[name]?.stringValue ?? "" }
        if !["C", "3M", "6M", "9M", "12M"].contains(value("tpPago")) { return "tpPago must be C or nM with n in 3, 6, 9, 12, got \"\(value("tpPago"))\"" }
        let amount = value("amount")
        guard amount.range(of: #"^[0-9]+\.[0-9]{2}$"#, options: .regularExpression) != nil, (Double(amount) ?? 0) > 0 else {
            return "amount must be greater than 0 with a dot, two decimals and no thousands separator, got \"\(amount)\""
        }
        if let problem = MITLinkCheck.amountProblem(amount, maxDigits: maxAmountDigits) { return problem }
        if value("urlResponse").isEmpty { return "urlResponse is missing" }
        if !(1...50).contains(value("referencia").count) { return "referencia must be 1–50 characters" }
        if !MITSuiteRules.currencies.contains(value("moneda")) { return "moneda must be MXN or USD, got \"\(value("moneda"))\"" }
        let iso = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"#
        if value("date_hour").range(of: iso, options: .regularExpression) == nil { return "date_hour must be ISO 8601 with an offset, got \"\(value("date_hour"))\"" }
        return nil
    }

    // MARK: - Authentication / tokenization (A001–A010)

    func authenticate(_ payload: [String: Value], data0: String, _ controller: [(code: String, passes: Bool)], now: Date) -> Result<MITXML.Element, Refusal> {
        guard let tokenData = payload["tokenData"]?.objectValue, let threeDS = payload["3dsData"]?.objectValue else { return .failure(Refusal("A008")) }
        // The tokenization bean first, then the 3DS bean in the SDK's order: the last failing check wins (§5.11 B1).
        let tokenChecks = MITSuiteRules.authentication.filter { $0.field != "authKey" }.map { ($0.code, accepts($0.field, tokenData[$0.field]?.stringValue)) }
        let threeDSChecks = MITSuiteRules.authentication.map { ($0.code, accepts($0.field, threeDS[$0.field]?.stringValue)) }
        if let refusal = Self.refusal(tokenChecks + threeDSChecks + controller) { return .failure(refusal) }
        let card = Self.card(payload["card"])
        guard Self.cardValid(card, now: now) else { return .failure(Refusal("04", "04 -- Número de tarjeta inválido")) }
        // The issuer's 3DS answers r3ds_authResult N for this card: "Autenticación fallida" (§5.11 B1).
        if card.number == Self.failing3DSCard { return .failure(Refusal("A010")) }
        let reference = tokenData["reference"]?.stringValue ?? ""
        let token = state.withState { state -> String in
            let key = data0 + "|" + card.number
            if let token = state.suite.tokenOfCard[key] { return token }
            let token = String(format: "PCTK%012d", state.suite.nextToken)
            state.suite.nextToken += 1
            state.suite.tokenOfCard[key] = token
            state.suite.tokens[token] = CardToken(
                number: card.number, holder: card.holder, expMonth: card.expMonth, expYear: card.expYear, data0: data0, reference: reference)
            return token
        }
        var inner = MITXML.Element("TOKENIZATION")
        inner.add("cdResponse", "00")
        inner.add("nbResponse", MITResponseState.success.rawValue)
        inner.add("token", token)
        inner.add("tkn_reference", reference)
        inner.add("cc_type", "CREDITO")
        inner.add("cc_brand", Self.brand(card.number))
        inner.add("cc_bank", "BANCO MIT")
        inner.add("cc_number", String(card.number.suffix(4)))
        return .success(inner)
    }

    /// Whether a bean field matches the merchant (the server's side of the SDK's checks).
    func accepts(_ field: String, _ value: String?) -> Bool {
        guard let value, !value.isEmpty else { return false }
        switch field {
        case "branch": return value == credentials["idBranch"]
        case "company": return value == credentials["idCompany"]
        case "user": return value == credentials["user"]
        case "password": return value == credentials["password"]
        case "merchant": return value == credentials["merchant"]
        case "authKey": return value == credentials["authKey"]
        case "country": return value == "MEX"  // the sandbox merchant's country
        case "currency": return MITSuiteRules.currencies.contains(value)
        default: return true
        }
    }

    // MARK: - Pay with token (T001–T014)

    func payWithToken(
        _ payload: [String: Value], data0: String, site: Site, _ controller: [(code: String, passes: Bool)], now: Date
    ) -> Result<MITXML.Element, Refusal> {
        guard let data = payload["paymentData"]?.objectValue, payload["3dsData"]?.objectValue != nil else { return .failure(Refusal("T012")) }
        let value = { (name: String) in data[name]?.stringValue ?? "" }
        let (token, charged) = state.withState { state in
            (state.suite.tokens[value("token")], state.suite.chargedReferences.contains(data0 + "|" + value("reference")))
        }
        let results = MITSuiteRules.tokenPayment.map { check -> (code: String, passes: Bool) in
            switch check.field {
            case "reference": return (check.code, !value("reference").isEmpty && !charged)
            case "operationType": return (check.code, site.operationTypes.contains(value("operationType")))
            case "token": return (check.code, token?.data0 == data0)
            case "amount":
                let amount = value("amount")
                let number = Double(amount) ?? 0
                return (check.code, MITSuiteRules.sdkAccepts("amount", amount) && number > 0 && number <= site.maxAmount)
            default: return (check.code, accepts(check.field, value(check.field)))
            }
        }
        if let refusal = Self.refusal(results + controller) { return .failure(refusal) }
        guard let token else { return .failure(Refusal("T009")) }
        // A card captured again (the SDK re-authenticates when the device context is new, §5.11 B1): it must be a
        // valid card (T004) and the card of the token (T013).
        if payload["card"]?.objectValue != nil {
            let card = Self.card(payload["card"])
            guard Self.cardValid(card, now: now) else { return .failure(Refusal("T004")) }
            guard card.number == token.number else { return .failure(Refusal("T013")) }
        }
        let (response, cdError, nbError) = Self.issuer(token.number)
        let folio = response == .error ? "" : nextFolio()
        state.withState { state in
            if response != .error { _ = state.suite.chargedReferences.insert(data0 + "|" + value("reference")) }
        }
        let amount = String(format: "%.2f", Double(value("amount")) ?? 0)
        var inner = MITXML.Element("CENTEROFPAYMENTS")
        inner.add("reference", value("reference"))
        inner.add("response", response.rawValue)
        inner.add("foliocpagos", folio)
        inner.add("auth", response == .approved ? String(folio.suffix(6)) : "")
        inner.add("cd_response", response == .approved ? "0C" : "")
        inner.add("cd_error", cdError)
        inner.add("nb_error", nbError)
        inner.add("nb_company", "SANDBOX MIT")
        inner.add("nb_merchant", (credentials["merchant"] ?? "") + " SUITE MCOMMERCE")
        inner.add("cc_type", "CREDITO/BANCO MIT/\(Self.brand(token.number))")
        inner.add("tp_operation", "VENTA")
        inner.add("cc_name", token.holder)
        inner.add("cc_number", String(token.number.suffix(4)))
        inner.add("cc_expmonth", token.expMonth)
        inner.add("cc_expyear", token.expYear)
        inner.add("amount", amount)
        inner.add("date", MITDate.day(now))
        inner.add("time", MITDate.time(now))
        return .success(inner)
    }

    // MARK: - Cards

    /// The card of a payload, the default test card when none was typed.
    static func card(_ value: Value?) -> (number: String, holder: String, expMonth: String, expYear: String) {
        let field = { (name: String) in value?[name]?.stringValue ?? "" }
        let number = field("number").isEmpty ? defaultCard : field("number").filter { $0 != " " && $0 != "-" }
        return (number, field("holder").isEmpty ? "PAYCHECK TEST" : field("holder"), field("expMonth"), field("expYear"))
    }

    /// Luhn, and an expiry (when given) that is a real month not before the mock clock's.
    static func cardValid(_ card: (number: String, holder: String, expMonth: String, expYear: String), now: Date) -> Bool {
        guard MITSuiteRules.luhn(card.number) else { return false }
        if card.expMonth.isEmpty && card.expYear.isEmpty { return true }
        guard let month = Int(card.expMonth), (1...12).contains(month), var year = Int(card.expYear) else { return false }
        if year < 100 { year += 2000 }
        let current = MITDate.month(now)
        return year * 100 + month >= current
    }

    /// The brand of a card number by its first digit.
    static func brand(_ number: String) -> String {
        switch number.first {
        case "4": "Visa"
        case "5", "2": "MasterCard"
        case "3": "AMEX"
        default: "Other"
        }
    }

    /// The next 9-digit folio, shared with WebPay Plus.
    func nextFolio() -> String {
        state.withState { state in
            defer { state.folio += 1 }
            return String(format: "%09d", state.folio)
        }
    }
}
