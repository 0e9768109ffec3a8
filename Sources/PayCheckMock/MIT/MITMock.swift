package import Foundation
package import Hummingbird
import PayCheckCore
package import PayCheckProviders

/// The stateful WebPay Plus mock of ``MITProvider`` (providers.md §5.2–§5.3 as corrected by §5.11):
///
/// - `POST /mit/gen`: the form field `xml` holds `<pgs><data0/><data/></pgs>`; `data0` selects the merchant, `data` is
///   decrypted with its key, the `P` document is checked (lenient limits of §5.11 C2–C5 by default, the 2018 XSD's
///   with `mock: site {strict: true}`), and the answer is the encrypted `P_RESPONSE` (§5.11 C8): `success` and an
///   `nb_url` to the hosted page, or the `cd_error` code of D6 (01 schema, 02 restrictions, 03 credentials) with
///   `nb_response`. An unknown `data0` or an undecryptable `data` is answered in clear text (C8). Always HTTP 200 (G).
/// - `GET /mit/i/{id}`: the hosted payment page of a link (HTML, state only).
/// - `payer: pay {url, result, card, cd_error, nb_error}`: the payer approves, is denied or hits an error on the page;
///   the mock then POSTs `strResponse` (the encrypted `CENTEROFPAYMENTS` of §5.11 D1, CRLF-wrapped Base64, URL-encoded
///   as in D2), `strIdCompany`, `strIdMerchant` to the site's response URL through the shared webhook dispatcher.
/// - `mock: site {responseUrl, strict, wrapNotification, operationTypes, maxAmount, maxAmountDigits, spanishResponse}`: the merchant's
///   settings at MIT (the response URL is configured with MIT, not sent in the link, §6.1; the last three are the Suite's).
/// - `POST /mit/mcommerce/{init|pay|authenticate|payWithToken}`: the Suite mCommerce services (`MITMock+Suite.swift`).
package final class MITMock: ProviderMock {
    /// A generated link.
    struct Link: Sendable {
        var id: String
        var reference: String
        var amount: String
        var currency: String
        var additionalData: String
        var email: String
        var data0: String
        var response: MITResponseState?
        var folio: String?
    }

    /// The merchant's settings.
    struct Site: Sendable {
        var responseUrl: String?
        var strict = false
        var wrapNotification = true
        /// Suite mCommerce: the merchant's operation types ("número de operativa", unpublished; PayCheck's choice).
        var operationTypes = ["1"]
        /// Suite mCommerce: the largest amount the affiliation may charge (PayCheck's choice).
        var maxAmount = 250_000.0
        /// `/gen` and the Cobro: the most digits before the point of an amount (MIT publishes no bound; PayCheck's
        /// choice, 12).
        var maxAmountDigits = AmountRule.defaultIntegerDigits
        /// Suite mCommerce: the Cobro answers `Aprobada`/`denegada`, the older texts of the guide (§5.4).
        var spanishResponse = false
    }

    struct State: Sendable {
        var links: [String: Link] = [:]
        var next = 1
        /// The oldest link number that may still be stored (eviction moves it on).
        var oldestLink = 1
        var folio = 551_635
        /// Sites by `data0`; the mock credentials' `data0` is always known (with defaults).
        var sites: [String: Site] = [:]
        /// Suite mCommerce: card tokens, the token of each card, the references already charged.
        var suite = SuiteState()
        /// The IVs of the link requests each `data0` sent, for `mit.iv-reused` (§5.1: a random IV per message); the
        /// oldest forgotten past ``ivMemory``.
        var ivs: [String: Set<[UInt8]>] = [:]
        /// The remembered IVs, oldest first from ``ivOldest``: forgetting one moves the index, and the forgotten
        /// prefix is dropped once it is as long as the memory, so each IV costs O(1) however many are kept.
        var ivOrder: [(data0: String, iv: [UInt8])] = []
        var ivOldest = 0
        static let ivMemory = 10_000
    }

    /// The adapter.
    package var provider: any Provider { MITProvider() }
    /// A `malformed` fault on MIT answers a bad cipher envelope (§5.1): Base64 whose length is no whole AES block,
    /// in the `text/html` the `/gen` route uses, so a client fails to decrypt it, not to read it.
    package var malformedBody: MalformedBody {
        MalformedBody(contentType: "text/html;charset=UTF-8", body: "q83vEjRWeJA=")
    }

    /// A link is pending, then approved, denied or error; the Suite answers success, a SuiteError, or a payment's
    /// response (also the Cobro's Spanish `Aprobada`/`denegada`).
    package var nativeStates: [String] { MITResponseState.spellings }

    let state = ProviderStateStore { State() }
    let credentials = MITProvider().mockCredentials

    package init() {}

    package func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        router.post("mit/gen") { request, _ -> Response in try await self.generate(request, environment: environment) }
        router.post("mit/mcommerce/{service}") { request, context -> Response in
            let body = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            return self.answerSuite(context.parameters.get("service") ?? "", form: String(decoding: body, as: UTF8.self), now: environment.clock.now()).response
        }
        router.get("mit/i/{id}") { _, context -> Response in self.page(context.parameters.get("id") ?? "") }
        router.post("mit/i/{id}") { request, context -> Response in
            try await self.submit(request, id: context.parameters.get("id") ?? "", environment: environment)
        }
        ControlActionRoutes.register(
            MITProvider(),
            handlers: [
                "payer/pay": { try await self.pay($0, environment: environment) },
                "mock/site": { try await self.site($0) },
                "mock/forge": { try await self.forge($0, environment: environment) },
            ], on: router)
    }

    /// Plain text, as MIT's gateway answers what it cannot take (§5.11 C8): 404 for an unknown path, 405 for another
    /// method on a known one (the mock's choice).
    package func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData {
        allowed.isEmpty
            ? errorAnswer(status: 404, message: "Not found: \(path)", now: now)
            : errorAnswer(status: 405, message: "Method not allowed: \(method) \(path)", now: now)
    }

    package func reset() async {
        state.reset()
    }

    // MARK: - /gen

    private func generate(_ request: Request, environment: MockEnvironment) async throws -> Response {
        let body = Array(buffer: try await request.body.collect(upTo: 1 << 20))
        return answerGenerate(String(decoding: body, as: UTF8.self), base: environment.baseURL()).response
    }

    /// The synchronous part of `/gen`.
    func answerGenerate(_ form: String, base: String) -> HTTPResponseData {
        let clear = { (text: String) in HTTPResponseData(status: 200, headers: [("Content-Type", "text/html;charset=UTF-8")], body: Array(text.utf8)) }
        let pairs = FormText.decodePairs(form)
        // The .NET SDK sends `xml=` inside the value; locate `<pgs>` wherever it is (§5.11 C7).
        guard let value = pairs.first(where: { $0.name == "xml" })?.value, let pgs = MITXML.inner("pgs", in: value) else {
            return clear("Error: the form field 'xml' with <pgs> is missing")
        }
        let data0 = MITXML.inner("data0", in: pgs)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let known = state.withState { $0.sites[data0] } ?? (data0 == credentials["data0"] ? Site() : nil)
        guard let site = known, let key = credentials["key"] else { return clear("Error: data0 desconocido") }
        guard let data = MITXML.inner("data", in: pgs), let plain = try? MITCipher.decrypt(data, keyHex: key) else {
            return clear("Error: no se pudo descifrar data")
        }
        self.reportIV(of: data, data0: data0)
        let sealed = { (code: String, message: String, url: String) in
            let document =
                "<P_RESPONSE><cd_response>\(code)</cd_response><nb_response>\(MITXML.escape(message))</nb_response>"
                + (url.isEmpty ? "" : "<nb_url>\(MITXML.escape(url))</nb_url>") + "</P_RESPONSE>"
            return HTTPResponseData(
                status: 200, headers: [("Content-Type", "text/html;charset=UTF-8")],
                body: Array(((try? MITCipher.encrypt(document, keyHex: key)) ?? "").utf8))
        }
        guard let parsed = XMLValue.parse(plain), let document = parsed["P"]?.objectValue else {
            return sealed("01", "01 -- El XML no cumple con el esquema: not a <P> document", "")
        }
        switch MITLinkCheck.check(document, strict: site.strict, maxAmountDigits: site.maxAmountDigits, credentials: credentials) {
        case .failure(let failure):
            return sealed(failure.code, "\(failure.code) -- \(failure.message)", "")
        case .success(let fields):
            self.reportLinkFindings(fields, data0: data0)
            let link: Link = state.withState { state in
                // 8 upper-case alphanumerics (§5.11 C8): "PC" and the link's number in base 36, so ids never repeat
                // within a run (a number modulo 1000 overwrote the 1001st link's predecessor).
                let id = State.linkID(state.next)
                state.next += 1
                let link = Link(
                    id: id, reference: fields.reference, amount: fields.amount, currency: fields.currency,
                    additionalData: fields.additionalData, email: fields.email, data0: data0)
                state.links[id] = link
                return link
            }
            return sealed("success", "", ProviderExecutor.join(base, "/mit/i/\(link.id)"))
        }
    }

    // MARK: - Findings on a merchant's link requests (providers.md §5.1, §5.2)

    /// Reports `mit.iv-reused` when `data0` already sent a message under the IV of `data` (its first 16 bytes).
    private func reportIV(of data: String, data0: String) {
        guard let bytes = try? MITCipher.decode(data, encoding: .base64), bytes.count >= 16 else { return }
        let iv = Array(bytes.prefix(16))
        let seen = state.withState { state -> Bool in
            if state.ivs[data0, default: []].contains(iv) { return true }
            state.ivs[data0, default: []].insert(iv)
            state.ivOrder.append((data0, iv))
            if state.ivOrder.count - state.ivOldest > State.ivMemory {
                let oldest = state.ivOrder[state.ivOldest]
                state.ivs[oldest.data0]?.remove(oldest.iv)
                state.ivOldest += 1
                if state.ivOldest >= State.ivMemory {
                    state.ivOrder.removeFirst(state.ivOldest)
                    state.ivOldest = 0
                }
            }
            return false
        }
        if seen {
            MerchantFindings.report(MITProvider.MerchantRules.ivReused, "IV \(iv.map { String(format: "%02x", $0) }.joined()) was already used by this merchant")
        }
    }

    /// Reports `mit.amount-format` and `mit.reference-reused` for a link request that passed the checks.
    private func reportLinkFindings(_ fields: MITLinkCheck.Fields, data0: String) {
        let parts = fields.amount.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count != 2 || parts[1].count != 2 {
            MerchantFindings.report(MITProvider.MerchantRules.amountFormat, "amount '\(fields.amount)' is not written with two decimals")
        }
        let other = state.withState { state in
            state.links.values.first { link in
                link.data0 == data0 && link.reference == fields.reference && (link.amount != fields.amount || link.response == .approved)
            }
        }
        if let other {
            let why = other.response == .approved ? "which was paid" : "for \(other.amount), this one is for \(fields.amount)"
            MerchantFindings.report(MITProvider.MerchantRules.referenceReused, "reference '\(fields.reference)' already names link \(other.id), \(why)")
        }
    }

    // MARK: - Hosted page

    /// The payment page of a WebPay Plus link (`nb_url`, §5): reference, amount and state (`dd#reference`,
    /// `dd#amount`, `dd#status`); while unpaid, the card and the outcomes MIT's sandbox can give (approved, denied,
    /// error) and "Pagar".
    func page(_ id: String, message: String? = nil) -> Response {
        guard let link = state.withState({ $0.links[id] }) else {
            return PayerPage.notice(title: "Centro de Pagos", lang: "es", paragraph: "Liga no encontrada", status: .notFound)
        }
        let facts: [(id: String, label: String, value: String)] =
            [
                ("reference", "Referencia", link.reference), ("amount", "Importe", "\(link.amount) \(link.currency)"),
                ("status", "Estado", (link.response ?? .pending).rawValue),
            ] + (link.folio.map { [(id: "folio", label: "Folio", value: $0)] } ?? [])
        guard link.response == nil else {
            return PayerPage.form(
                title: "Centro de Pagos", lang: "es", facts: facts,
                message: message ?? "Centro de Pagos envió el resultado al comercio. Regrese a la app: ella consulta al comercio.",
                field: "", legend: "", choices: [], buttons: [])
        }
        return PayerPage.form(
            title: "Centro de Pagos", lang: "es", facts: facts, message: message, field: "result", legend: "Resultado (sandbox)",
            choices: [
                .init(value: "approved", label: "Aprobada"), .init(value: "denied", label: "Declinada"), .init(value: "error", label: "Error"),
            ],
            inputs: [(name: "card", label: "Número de tarjeta", value: "5555555555554444")], buttons: [("pay", "Pagar")])
    }

    /// "Pagar": the link settles as `payer: pay` settles it — the encrypted result is posted to the site's response
    /// URL (§5.3) — and the payer sees the receipt. Where MIT's page sends the payer's browser afterwards is not
    /// documented (providers.md §5, [3P]): the app closes the page and asks its backend, so the receipt stays.
    private func submit(_ request: Request, id: String, environment: MockEnvironment) async throws -> Response {
        let fields = try await PayerPage.fields(of: request)
        let members: [String: Value] = [
            "url": .string(id), "result": .string(fields["result"] ?? "approved"), "card": .string(fields["card"] ?? ""),
        ]
        do {
            let (_, notification) = try settle(members, now: environment.clock.now())
            if let notification { _ = await environment.webhooks.deliver(notification) }
            return self.page(id)
        } catch let error as MockHTTPError {
            return self.page(id, message: error.message)
        }
    }

    // MARK: - Control

    private func pay(_ request: Request, environment: MockEnvironment) async throws -> Response {
        let members = try await Self.object(request)
        let (result, notification) = try settle(members, now: environment.clock.now())
        if let notification {
            _ = await environment.webhooks.deliver(notification)
        }
        return MockResponse.json(result)
    }

    /// `mock: forge {url}`: an attacker's result for a link — its approved `CENTEROFPAYMENTS`, encrypted with a key
    /// that is not the merchant's — posted once to the site's response URL; the link stays unpaid. A receiver that
    /// cannot decrypt a result with its key must ignore it (§5.3: the key is the result's only authentication).
    private func forge(_ request: Request, environment: MockEnvironment) async throws -> Response {
        let members = try await Self.object(request)
        let id = (members["url"]?.interpolated ?? "").split(separator: "/").last.map(String.init) ?? ""
        let (link, site) = try state.withState { state -> (Link, Site) in
            guard let link = state.links[id] else { throw MockHTTPError(.notFound, "no MIT link \(MockHTTPError.quoted(id)) (pass the nb_url of generateLink)") }
            return (link, state.sites[link.data0] ?? Site())
        }
        guard let responseUrl = site.responseUrl else {
            throw MockHTTPError(.conflict, "the site of link \(id) has no response URL (mock: site {data0, responseUrl})")
        }
        let xml = MITNotification.document(
            link: (link.id, link.reference, link.amount, link.email, link.additionalData, "999999999"), response: .approved,
            card: "4111111111111111", cdError: "", nbError: "", now: environment.clock.now())
        var attackerKey = (0..<16).map { _ in String(format: "%02X", UInt8.random(in: 0...255)) }.joined()
        if attackerKey == credentials["key"] { attackerKey = String(attackerKey.reversed()) }
        let body = FormText.encode([
            ("strResponse", try MITCipher.encrypt(xml, keyHex: attackerKey)), ("strIdCompany", credentials["idCompany"] ?? ""), ("strIdMerchant", "1234567"),
        ])
        _ = await environment.webhooks.deliver(
            Webhook(
                provider: "mit", url: responseUrl, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8)))
        return MockResponse.json(.object(["forged": .bool(true), "id_url": .string(link.id), "url": .string(responseUrl)]))
    }

    /// The synchronous part of `payer: pay`: moves the link and builds its notification.
    func settle(_ members: [String: Value], now: Date) throws -> (Value, Webhook?) {
        let url = members["url"]?.interpolated ?? ""
        let id = url.split(separator: "/").last.map(String.init) ?? ""
        let asked = members["result"]?.interpolated ?? MITResponseState.approved.rawValue
        guard let response = MITResponseState(rawValue: asked), [.approved, .denied, .error].contains(response) else {
            throw MockHTTPError(.badRequest, "'result' must be approved, denied or error, got \(MockHTTPError.quoted(asked))")
        }
        let card = members["card"]?.interpolated ?? "5555555555554444"
        guard card.count >= 12, card.allSatisfy(\.isNumber) else { throw MockHTTPError(.badRequest, "'card' must be 12 or more digits") }
        let cdError = members["cd_error"]?.interpolated ?? (response == .error ? "03" : "")
        let (link, site) = try state.withState { state -> (Link, Site) in
            guard var link = state.links[id] else { throw MockHTTPError(.notFound, "no MIT link \(MockHTTPError.quoted(id)) (pass the nb_url of generateLink)") }
            guard link.response == nil else { throw MockHTTPError(.conflict, "link \(id) was already paid: \(link.response?.rawValue ?? "")") }
            link.response = response
            if response != .error { link.folio = String(format: "%09d", state.folio); state.folio += 1 }
            state.links[id] = link
            return (link, state.sites[link.data0] ?? Site())
        }
        let xml = MITNotification.document(
            link: (link.id, link.reference, link.amount, link.email, link.additionalData, link.folio ?? ""), response: response,
            card: card, cdError: cdError, nbError: members["nb_error"]?.interpolated ?? "", now: now)
        var result: [String: Value] = ["id_url": .string(link.id), "reference": .string(link.reference), "response": .string(response.rawValue)]
        guard let responseUrl = site.responseUrl, let key = credentials["key"] else {
            result["notified"] = .bool(false)
            return (.object(result), nil)
        }
        let sealed = try MITCipher.encrypt(xml, keyHex: key)
        let wire = site.wrapNotification ? MITNotification.wrap(sealed) : sealed
        let body = FormText.encode([("strResponse", wire), ("strIdCompany", credentials["idCompany"] ?? ""), ("strIdMerchant", "1234567")])
        result["notified"] = .bool(true)
        let webhook = Webhook(provider: "mit", url: responseUrl, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
        return (.object(result), webhook)
    }

    private func site(_ request: Request) async throws -> Response {
        MockResponse.json(try putSite(try await Self.object(request)))
    }

    /// `mock: site {data0, responseUrl, strict, wrapNotification, operationTypes, maxAmount, maxAmountDigits, spanishResponse}`: creates or changes the merchant site of a
    /// `data0` (MIT assigns one per merchant; a suite uses its own to run in parallel with others). The site shares
    /// the mock merchant's company, branch, user, password and key.
    func putSite(_ members: [String: Value]) throws -> Value {
        guard let data0 = members["data0"]?.stringValue, !data0.isEmpty, data0.count <= 40 else {
            throw MockHTTPError(.badRequest, "'data0' must be a non-empty string of at most 40 characters (e.g. \"D{{ random(8) }}\")")
        }
        return try state.withState { state in
            var site = state.sites[data0] ?? Site()
            if let url = members["responseUrl"] { site.responseUrl = url == .null ? nil : url.interpolated }
            if let strict = members["strict"] {
                guard case .bool(let value) = strict else { throw MockHTTPError(.badRequest, "'strict' must be true or false") }
                site.strict = value
            }
            if let types = members["operationTypes"] {
                guard case .array(let list) = types, !list.isEmpty else { throw MockHTTPError(.badRequest, "'operationTypes' must be a non-empty list") }
                site.operationTypes = list.map(\.interpolated)
            }
            if let limit = members["maxAmount"] {
                guard let value = limit.numberValue, value > 0 else { throw MockHTTPError(.badRequest, "'maxAmount' must be a positive number") }
                site.maxAmount = value
            }
            if let digits = members["maxAmountDigits"] {
                guard let value = digits.wholeNumber, (1...18).contains(value) else {
                    throw MockHTTPError(.badRequest, "'maxAmountDigits' must be a whole number from 1 to 18")
                }
                site.maxAmountDigits = value
            }
            if let spanish = members["spanishResponse"] {
                guard case .bool(let value) = spanish else { throw MockHTTPError(.badRequest, "'spanishResponse' must be true or false") }
                site.spanishResponse = value
            }
            if let wrap = members["wrapNotification"] {
                guard case .bool(let value) = wrap else { throw MockHTTPError(.badRequest, "'wrapNotification' must be true or false") }
                site.wrapNotification = value
            }
            state.sites[data0] = site
            return .object([
                "data0": .string(data0), "responseUrl": site.responseUrl.map(Value.string) ?? .null, "strict": .bool(site.strict),
                "wrapNotification": .bool(site.wrapNotification), "operationTypes": .array(site.operationTypes.map(Value.string)),
                "maxAmount": .double(site.maxAmount), "maxAmountDigits": .int(site.maxAmountDigits), "spanishResponse": .bool(site.spanishResponse),
            ])
        }
    }

    private static func object(_ request: Request) async throws -> [String: Value] {
        let bytes = Array(buffer: try await request.body.collect(upTo: 1 << 20))
        guard case .object(let members)? = JSONText.parse(bytes) else { throw MockHTTPError(.badRequest, "expected a JSON object") }
        return members
    }
}
