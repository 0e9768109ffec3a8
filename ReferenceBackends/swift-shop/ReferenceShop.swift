// reference-shop: PayCheck's reference merchant backend. It integrates Mollie, PlacetoPay, khipu and MIT the way a
// careful merchant would, and PayCheck tests it as a black box through ReferenceBackends/swift-shop/contract.yaml. It
// behaves like the stdlib Python shop (ReferenceBackends/python-shop): the same routes, JSON fields, environment
// variables, status mapping and SHOP_BUG mutations (MIT only here: WebPay Plus needs AES, which Python's standard
// library lacks).
//
// It plays a real merchant's code, written apart from PayCheck: it depends on no PayCheck target and knows the
// providers only through HTTP.
//
// - Mollie (providers.md §4): payments are created server side with an Idempotency-Key; the webhook carries only
//   `id=tr_…`, so the shop always re-fetches the payment and acts on the fetched status.
// - PlacetoPay (providers.md §1): every request carries a fresh `auth` (new nonce, current seed,
//   tranKey = Base64(SHA-256(rawNonce + seed + secretKey))); notifications are checked against their signature
//   (SHA-1 hex, or `sha256:` + SHA-256 hex, of requestId + status + date + secretKey) and then the session is
//   re-queried; the body's status is never trusted.
// - khipu (providers.md §2): payments through the API 3.0 with `x-api-key`, notifications in the 3.0 shape, checked
//   against `x-khipu-signature` (Base64(HMAC-SHA256(secret, t + "." + body))) and then the payment is re-fetched.
// - MIT WebPay Plus (providers.md §5): an encrypted link request; the encrypted result MIT posts is the only truth
//   (there is no status query), taken only when it decrypts with the key and names the order's reference and amount.
// - The shopper's return never decides anything: the provider is asked.
// - Fulfilment happens once, on the first transition to `paid`, under a lock.
import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import Logging

/// The executable: reads the configuration, then serves the shop on `127.0.0.1:SHOP_PORT` until SIGTERM or SIGINT.
@main
struct ReferenceShop {
    /// Starts the shop; exits with status 1 and a message on stderr when the configuration is not usable.
    static func main() async {
        let config: ShopConfig
        do {
            config = try ShopConfig(environment: ProcessInfo.processInfo.environment)
        } catch {
            Self.fail("\(error)")
        }
        let providers = config.enabledProviders
        guard !providers.isEmpty else {
            Self.fail(
                "configure MOLLIE_API_URL/MOLLIE_API_KEY, PLACETOPAY_URL/PLACETOPAY_LOGIN/PLACETOPAY_SECRET_KEY, KHIPU_API_URL/KHIPU_API_KEY/KHIPU_SECRET, the MIT_* or the YUNO_* variables"
            )
        }
        let client = ProviderHTTP.client(timeout: config.timeout)
        let http = ProviderHTTP(
            client: client, timeout: config.timeout,
            userAgent: config.bug == .appCallsProvider ? "PayCheckShop/1.0 CFNetwork/1490.0.4 Darwin/23.2.0" : nil,
            newKeyOnRetry: config.bug == .newIdempotencyKey)
        let shop = Shop(config: config, http: http)
        if providers.contains(.yuno), config.bug != .noNotifications {
            // Yuno notifies the webhooks registered for the account (§3.8): the shop registers its own.
            do {
                try await shop.yuno.registerWebhook(url: "\(config.publicURL)/webhooks/yuno")
            } catch {
                try? await client.shutdown()
                Self.fail("registering the Yuno webhook failed: \(error)")
            }
        }
        let listening =
            "listening on http://127.0.0.1:\(config.port) (public \(config.publicURL)); "
            + "providers: \(providers.map(\.rawValue).joined(separator: ", ")); design: \(config.design.rawValue); bug: \(config.bug?.rawValue ?? "none")"
        var app = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in await shop.respond(to: request) },
            configuration: .init(address: .hostname("127.0.0.1", port: config.port), serverName: "reference-shop/1.0"),
            onServerRunning: { _ in log(listening) }
        )
        // Hummingbird's own lines would only repeat what the shop logs; warnings and errors still show.
        app.logger.logLevel = .warning
        do {
            try await app.runService()
        } catch {
            Self.fail("the server stopped: \(error)")
        }
        try? await client.shutdown()
    }

    /// Writes `message` to stderr, prefixed with the shop's name, and exits with status 1.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("reference-shop: \(message)\n".utf8))
        exit(1)
    }
}

// MARK: - Configuration

/// A mistake the shop can be told to make (`SHOP_BUG`), for mutation tests of PayCheck's packs.
enum ShopBug: String, Sendable, CaseIterable {
    /// PlacetoPay: one raw nonce for the whole process, a fresh seed per request (the second call fails auth).
    case reuseNonce = "reuse-nonce"
    /// `GET /return/<id>` marks the order paid without asking the provider.
    case trustReturn = "trust-return"
    /// PlacetoPay and khipu notifications are not verified and their body status is taken as the truth; any Mollie
    /// webhook for a known id marks the order paid without re-fetching.
    case noSignatureCheck = "no-signature-check"
    /// Every paid notification fulfils again.
    case doubleFulfil = "double-fulfil"
    /// A failed or declined payment is taken as paid (a status mapping that treats every final answer as success).
    case declinePaid = "decline-paid"
    /// A pending payment (Mollie `pending`/`authorized`, PlacetoPay `PENDING`, khipu `verifying`) is taken as paid.
    case pendingPaid = "pending-paid"
    /// An expired payment is never noticed: the order stays open.
    case ignoreExpiry = "ignore-expiry"
    /// The payment is created for one major unit more than the order's amount (a fee added twice).
    case otherAmount = "other-amount"
    /// Mollie payments are created without an Idempotency-Key, and the create is still retried once when Mollie
    /// does not answer: a lost answer makes a second payment. (Yuno refuses a create without its key.)
    case noIdempotencyKey = "no-idempotency-key"
    /// A Yuno webhook whose signature verifies is taken at its word, status included, even for an order that is
    /// already final: a late or out-of-order webhook moves a paid order back.
    case paidMovedBack = "paid-moved-back"
    /// The payment is created for the order's major units only (`10.50` → `10.00`): amounts kept as whole units.
    case dropCents = "drop-cents"
    /// A Mollie `authorized` payment (reserved, not captured) is taken as paid.
    case authorizedPaid = "authorized-paid"
    /// A khipu `done` payment is taken as paid whatever its `status_detail` (`rejected-by-payer` included).
    case ignoreStatusDetail = "ignore-status-detail"
    /// The shop never asks for notifications: Mollie creates without `webhookUrl`, khipu ones without `notify_url`,
    /// no Yuno webhook registered. A premise every notification scenario needs, missing.
    case noNotifications = "no-notifications"
    /// Every provider call carries a mobile app's User-Agent, as when the app calls the provider itself with keys it
    /// should not hold.
    case appCallsProvider = "app-calls-provider"
    /// A create retried after no answer gets a new idempotency key (Mollie: a second payment; Yuno: the spent token
    /// refused while Yuno holds the first payment).
    case newIdempotencyKey = "new-idempotency-key"
    /// Mollie payments are created without a `redirectUrl`.
    case noRedirectURL = "no-redirect-url"
    /// PlacetoPay sessions are created without the payer's `ipAddress` and `userAgent`.
    case noClientInfo = "no-client-info"
    /// PlacetoPay sessions expire 2 minutes after they are created (PlacetoPay takes 5 or more).
    case shortExpiration = "short-expiration"
    /// Yuno payments are created without the checkout session the SDK's token belongs to.
    case noCheckoutSession = "no-checkout-session"
    /// Yuno amounts are sent as text ("52000.50") instead of a number.
    case amountAsText = "amount-as-text"
    /// MIT link requests carry their `<P>` document in clear instead of encrypted.
    case plainMIT = "plain-mit"
    /// MIT link requests are all encrypted under one IV.
    case reuseIV = "reuse-iv"
    /// The payer's return URLs (Mollie `redirectUrl`, PlacetoPay `returnUrl`, khipu `return_url`/`cancel_url`, Yuno
    /// `callback_url`) on a plain-http public host.
    case publicHTTP = "public-http"
    /// Mollie amounts are sent as a number (10.5) instead of a string with the currency's decimals.
    case amountAsNumber = "amount-as-number"
    /// The Mollie key is sent as a live one (`live_…`) to the test environment.
    case liveKey = "live-key"
    /// PlacetoPay's seed lags 10 minutes behind the clock.
    case staleSeed = "stale-seed"
    /// PlacetoPay's tranKey is the legacy SHA-1 one.
    case sha1TranKey = "sha1-trankey"
    /// PlacetoPay sessions are created without `payment.reference`.
    case noReference = "no-reference"
    /// khipu payments ask for a notification without `notify_api_version: "3.0"`.
    case noNotifyVersion = "no-notify-version"
    /// khipu payments are created without `transaction_id`.
    case noTransactionID = "no-transaction-id"
    /// Yuno sessions and payments are made for Mexico with the order's (Colombian) currency.
    case wrongCountry = "wrong-country"
    /// MIT amounts drop their trailing zeros (`100.5`).
    case mitAmountFormat = "mit-amount-format"
    /// Every MIT link names one fixed reference instead of the order's.
    case reuseReference = "reuse-reference"
    /// khipu CLP amounts go through a floating conversion that leaves decimals (5000 → 5000.5).
    case clpDecimals = "clp-decimals"
}

/// When the shop asks the provider about a payment (`SHOP_DESIGN`). All three are correct designs; the packs must
/// judge each of them right.
enum ShopDesign: String, Sendable, CaseIterable {
    /// Only when the provider notifies it.
    case notify
    /// Also when the payer comes back to the return URL.
    case `return`
    /// Also on every read of an order that is not final (the default).
    case read
}

/// A payment provider the shop integrates.
enum PaymentProvider: String, Sendable, CaseIterable {
    /// Mollie (providers.md §4).
    case mollie
    /// PlacetoPay WebCheckout (providers.md §1).
    case placetopay
    /// khipu's Instant Payments API 3.0 (providers.md §2).
    case khipu
    /// MIT Centro de Pagos, WebPay Plus (providers.md §5).
    case mit
    /// Yuno (providers.md §3): the app's SDK makes a one-time token, the shop creates the payment from it.
    case yuno
}

/// A configuration value that cannot be used; its description is the message the shop exits with.
struct ConfigError: Error, CustomStringConvertible {
    /// What is wrong.
    let description: String
}

/// The shop's settings, read from the environment as python-shop reads them (see its README.md).
struct ShopConfig: Sendable {
    /// The port on 127.0.0.1 (`SHOP_PORT`, default 8099).
    var port: Int
    /// The shop's own base URL without a trailing slash, for return and webhook URLs (`SHOP_PUBLIC_URL`).
    var publicURL: String
    /// Mollie's API base up to and including `/v2`, without a trailing slash (`MOLLIE_API_URL`).
    var mollieAPIURL: String
    /// The Mollie API key, sent as a Bearer token; never logged (`MOLLIE_API_KEY`).
    var mollieAPIKey: String
    /// The base `/api/session` is appended to, without a trailing slash (`PLACETOPAY_URL`).
    var placetopayURL: String
    /// The PlacetoPay site login (`PLACETOPAY_LOGIN`).
    var placetopayLogin: String
    /// The PlacetoPay site secret key; never logged (`PLACETOPAY_SECRET_KEY`).
    var placetopaySecret: String
    /// Minutes until a new PlacetoPay session expires (`PLACETOPAY_EXPIRATION_MINUTES`, at least 5); `nil` omits
    /// `expiration`, which leaves the provider's default of 30 minutes.
    var placetopayExpirationMinutes: Int?
    /// khipu's base (`KHIPU_API_URL`, `/v3/…` is appended), its `x-api-key` (`KHIPU_API_KEY`) and the secret its
    /// notifications are signed with (`KHIPU_SECRET`).
    var khipuURL: String
    var khipuAPIKey: String
    var khipuSecret: String
    /// MIT's base (`MIT_URL`, `/gen` is appended) and the merchant's credentials (`MIT_ID_COMPANY`, `MIT_ID_BRANCH`,
    /// `MIT_USER`, `MIT_PASSWORD`, `MIT_DATA0`, `MIT_KEY`).
    var mit: [String: String]
    /// Yuno's base (`YUNO_API_URL`, `/v1/…` is appended), keys (`YUNO_PUBLIC_API_KEY`, `YUNO_PRIVATE_SECRET_KEY`),
    /// account (`YUNO_ACCOUNT_ID`), the HMAC secret of the webhook the shop registers (`YUNO_WEBHOOK_SECRET`) and the
    /// country of its payments (`YUNO_COUNTRY`, default CO).
    var yuno: [String: String]
    /// Seconds allowed for each provider call (`SHOP_PROVIDER_TIMEOUT`, default 10).
    var timeout: Double
    /// The seeded mistake, if any (`SHOP_BUG`; unset or `none` for none).
    var bug: ShopBug?
    /// When the shop asks the provider (`SHOP_DESIGN`, default `read`).
    var design: ShopDesign

    /// Reads the settings from `environment`.
    /// - Throws: ``ConfigError`` for a value that cannot be used, such as an unknown `SHOP_BUG`.
    init(environment: [String: String]) throws {
        /// Variable `name` (or `fallback` when it is unset) without surrounding whitespace, as Python's `int()` and
        /// `float()` read it.
        func trimmed(_ name: String, _ fallback: String) -> String {
            (environment[name] ?? fallback).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let port = Int(trimmed("SHOP_PORT", "8099")), (0...65535).contains(port) else {
            throw ConfigError(description: "SHOP_PORT must be a port number")
        }
        self.port = port
        self.publicURL = Self.withoutTrailingSlashes(environment["SHOP_PUBLIC_URL"] ?? "http://127.0.0.1:\(port)")
        self.mollieAPIURL = Self.withoutTrailingSlashes(environment["MOLLIE_API_URL"] ?? "")
        self.mollieAPIKey = environment["MOLLIE_API_KEY"] ?? ""
        self.placetopayURL = Self.withoutTrailingSlashes(environment["PLACETOPAY_URL"] ?? "")
        self.placetopayLogin = environment["PLACETOPAY_LOGIN"] ?? ""
        self.placetopaySecret = environment["PLACETOPAY_SECRET_KEY"] ?? ""
        self.khipuURL = Self.withoutTrailingSlashes(environment["KHIPU_API_URL"] ?? "")
        self.khipuAPIKey = environment["KHIPU_API_KEY"] ?? ""
        self.khipuSecret = environment["KHIPU_SECRET"] ?? ""
        self.mit = [:]
        for name in ["MIT_URL", "MIT_ID_COMPANY", "MIT_ID_BRANCH", "MIT_USER", "MIT_PASSWORD", "MIT_DATA0", "MIT_KEY"] {
            self.mit[name] = environment[name] ?? ""
        }
        self.mit["MIT_URL"] = Self.withoutTrailingSlashes(self.mit["MIT_URL"] ?? "")
        self.yuno = [:]
        for name in ["YUNO_API_URL", "YUNO_PUBLIC_API_KEY", "YUNO_PRIVATE_SECRET_KEY", "YUNO_ACCOUNT_ID", "YUNO_WEBHOOK_SECRET"] {
            self.yuno[name] = environment[name] ?? ""
        }
        self.yuno["YUNO_API_URL"] = Self.withoutTrailingSlashes(self.yuno["YUNO_API_URL"] ?? "")
        let minutes = environment["PLACETOPAY_EXPIRATION_MINUTES"] ?? ""
        if minutes.isEmpty {
            self.placetopayExpirationMinutes = nil
        } else {
            guard let value = Int(minutes.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw ConfigError(description: "PLACETOPAY_EXPIRATION_MINUTES must be an integer")
            }
            guard value >= 5 else {
                throw ConfigError(description: "PLACETOPAY_EXPIRATION_MINUTES must be at least 5 (providers.md §1.4)")
            }
            self.placetopayExpirationMinutes = value
        }
        guard let timeout = Double(trimmed("SHOP_PROVIDER_TIMEOUT", "10")), timeout > 0, timeout.isFinite else {
            throw ConfigError(description: "SHOP_PROVIDER_TIMEOUT must be a number of seconds greater than 0")
        }
        self.timeout = timeout
        let bug = (environment["SHOP_BUG"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if bug.isEmpty || bug == "none" {
            self.bug = nil
        } else if let known = ShopBug(rawValue: bug) {
            self.bug = known
        } else {
            let expected = (["none"] + ShopBug.allCases.map(\.rawValue)).joined(separator: ", ")
            throw ConfigError(description: "unknown SHOP_BUG '\(bug)'; expected one of: \(expected)")
        }
        let design = trimmed("SHOP_DESIGN", "read")
        guard let known = ShopDesign(rawValue: design.isEmpty ? "read" : design) else {
            throw ConfigError(description: "unknown SHOP_DESIGN '\(design)'; expected one of: \(ShopDesign.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.design = known
    }

    /// The providers whose variables are all set, in a fixed order.
    var enabledProviders: [PaymentProvider] {
        var enabled: [PaymentProvider] = []
        if !self.mollieAPIURL.isEmpty && !self.mollieAPIKey.isEmpty { enabled.append(.mollie) }
        if !self.placetopayURL.isEmpty && !self.placetopayLogin.isEmpty && !self.placetopaySecret.isEmpty {
            enabled.append(.placetopay)
        }
        if !self.khipuURL.isEmpty && !self.khipuAPIKey.isEmpty && !self.khipuSecret.isEmpty { enabled.append(.khipu) }
        if self.mit.values.allSatisfy({ !$0.isEmpty }) { enabled.append(.mit) }
        if self.yuno.values.allSatisfy({ !$0.isEmpty }) { enabled.append(.yuno) }
        return enabled
    }

    /// `text` without any trailing `/`.
    private static func withoutTrailingSlashes(_ text: String) -> String {
        var text = Substring(text)
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}

// MARK: - Logging and time

/// Writes one line to stderr: the time, the shop's name and `message`. Never pass a secret.
func log(_ message: String) {
    FileHandle.standardError.write(Data("\(timestamp(Date())) reference-shop \(message)\n".utf8))
}

/// `date` in the local time zone as ISO 8601 to the second with its offset, e.g. `2025-01-31T14:05:09+01:00` (`Z` in
/// UTC); PlacetoPay's `seed` and `expiration` are written this way.
func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: .current))
}

// MARK: - The shop

/// An answer of the shop: a status and a JSON body.
struct Reply: Sendable {
    /// The HTTP status.
    var status: HTTPResponse.Status
    /// The JSON body.
    var body: JSONValue

    /// `status` with `{"error": message}`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Reply {
        Reply(status: status, body: ["error": .string(message)])
    }

    /// 200 with `{}`, the answer to a notification that was handled (or ignored on purpose).
    static let empty = Reply(status: .ok, body: [:])
}

/// A request the shop cannot read; its message is the 400 answer's `error`.
struct BadRequest: Error {
    /// What is wrong.
    let message: String
}

/// The shop: its orders, its providers and its routes (see python-shop's README.md for the contract).
struct Shop: Sendable {
    /// The settings.
    let config: ShopConfig
    /// The orders.
    let store: OrderStore
    /// Mollie.
    let mollie: MollieClient
    /// PlacetoPay.
    let placetopay: PlacetoPayClient
    let khipu: KhipuClient
    let mit: MITClient
    let yuno: YunoClient

    /// A public host on plain http, for `SHOP_BUG=public-http`.
    static let plainHost = "http://shop.example"

    /// The most a request body may hold.
    static let maxBody = 1 << 20

    /// Creates the shop for `config`, reaching the providers through `http`.
    init(config: ShopConfig, http: ProviderHTTP) {
        self.config = config
        self.store = OrderStore(bug: config.bug)
        self.mollie = MollieClient(
            baseURL: config.mollieAPIURL, apiKey: config.mollieAPIKey, publicURL: config.publicURL,
            sendsIdempotencyKey: config.bug != .noIdempotencyKey, asksForNotifications: config.bug != .noNotifications,
            sendsRedirectURL: config.bug != .noRedirectURL, returnBase: config.bug == .publicHTTP ? Self.plainHost : nil,
            amountAsNumber: config.bug == .amountAsNumber, liveKey: config.bug == .liveKey, authorizedIsPaid: config.bug == .authorizedPaid,
            http: http)
        self.placetopay = PlacetoPayClient(
            baseURL: config.placetopayURL, login: config.placetopayLogin, secretKey: config.placetopaySecret,
            expirationMinutes: config.bug == .shortExpiration ? 2 : config.placetopayExpirationMinutes, publicURL: config.publicURL,
            sendsClientInfo: config.bug != .noClientInfo, returnBase: config.bug == .publicHTTP ? Self.plainHost : nil,
            seedLag: config.bug == .staleSeed ? 600 : 0, sha1TranKey: config.bug == .sha1TranKey, sendsReference: config.bug != .noReference,
            reusedNonce: config.bug == .reuseNonce ? PlacetoPayClient.randomNonce() : nil, http: http)
        self.khipu = KhipuClient(
            baseURL: config.khipuURL, apiKey: config.khipuAPIKey, secret: config.khipuSecret, publicURL: config.publicURL,
            asksForNotifications: config.bug != .noNotifications, returnBase: config.bug == .publicHTTP ? Self.plainHost : nil,
            sendsNotifyVersion: config.bug != .noNotifyVersion, sendsTransactionID: config.bug != .noTransactionID,
            addsHalfUnit: config.bug == .clpDecimals,
            ignoresStatusDetail: config.bug == .ignoreStatusDetail, http: http)
        let mit = config.mit
        self.mit = MITClient(
            baseURL: mit["MIT_URL"] ?? "", idCompany: mit["MIT_ID_COMPANY"] ?? "", idBranch: mit["MIT_ID_BRANCH"] ?? "",
            user: mit["MIT_USER"] ?? "", password: mit["MIT_PASSWORD"] ?? "", data0: mit["MIT_DATA0"] ?? "", keyHex: mit["MIT_KEY"] ?? "",
            encrypts: config.bug != .plainMIT, fixedIV: config.bug == .reuseIV ? Array(repeating: 7, count: 16) : nil,
            shortAmount: config.bug == .mitAmountFormat, fixedReference: config.bug == .reuseReference ? "PAYCHECK-ORDER" : nil, http: http)
        let yuno = config.yuno
        self.yuno = YunoClient(
            baseURL: yuno["YUNO_API_URL"] ?? "", publicKey: yuno["YUNO_PUBLIC_API_KEY"] ?? "", privateKey: yuno["YUNO_PRIVATE_SECRET_KEY"] ?? "",
            accountID: yuno["YUNO_ACCOUNT_ID"] ?? "", webhookSecret: yuno["YUNO_WEBHOOK_SECRET"] ?? "",
            country: config.bug == .wrongCountry ? "MX" : ProcessInfo.processInfo.environment["YUNO_COUNTRY"].flatMap { $0.isEmpty ? nil : $0 } ?? "CO",
            sendsIdempotencyKey: config.bug != .noIdempotencyKey, sendsCheckoutSession: config.bug != .noCheckoutSession,
            amountAsText: config.bug == .amountAsText, callbackURL: config.bug == .publicHTTP ? Self.plainHost + "/return" : nil, http: http)
    }

    // MARK: Dispatch

    /// Answers `request` and logs one line for it: method, path and status.
    func respond(to request: Request) async -> Response {
        let rawPath = request.uri.path
        var path = rawPath
        if path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let reply: Reply
        do {
            switch request.method {
            case .get: reply = await self.get(path)
            case .post: reply = try await self.post(path, request)
            // The shop serves GET and POST only; any other method is refused the same way.
            default: reply = .error(.methodNotAllowed, "method not allowed")
            }
        } catch let error as BadRequest {
            reply = .error(.badRequest, error.message)
        } catch {
            // Never leak the details to the client.
            log("internal error: \(error)")
            reply = .error(.internalServerError, "internal error")
        }
        log("\(request.method.rawValue) \(rawPath) \(reply.status.code)")
        return Response(
            status: reply.status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body.serialized)))
    }

    /// The GET routes.
    private func get(_ path: String) async -> Reply {
        if path == "/health" { return Reply(status: .ok, body: ["ok": .bool(true)]) }
        if let id = Self.id(in: path, after: "/orders/") { return await self.getOrder(id) }
        if let id = Self.id(in: path, after: "/return/") { return await self.shopperReturn(id) }
        if ["/orders", "/webhooks/mollie", "/webhooks/placetopay", "/webhooks/khipu", "/webhooks/mit", "/webhooks/yuno"].contains(path) {
            return .error(.methodNotAllowed, "method not allowed")
        }
        return .error(.notFound, "not found")
    }

    /// The POST routes.
    /// - Throws: ``BadRequest`` when the body cannot be read.
    private func post(_ path: String, _ request: Request) async throws -> Reply {
        switch path {
        case "/orders": return try await self.createOrder(Self.body(of: request))
        case "/webhooks/mollie": return try await self.mollieWebhook(Self.body(of: request))
        case "/webhooks/placetopay": return try await self.placetopayNotification(Self.body(of: request))
        case "/webhooks/mit": return try await self.mitResult(Self.body(of: request))
        case "/webhooks/yuno":
            return try await self.yunoWebhook(Self.body(of: request), signature: request.headers.first { $0.name.canonicalName == "x-hmac-signature" }?.value)
        case "/webhooks/khipu":
            return try await self.khipuNotification(Self.body(of: request), signature: request.headers.first { $0.name.canonicalName == "x-khipu-signature" }?.value)
        default:
            if path.hasPrefix("/orders/"), path.hasSuffix("/pay"), let id = Self.id(in: String(path.dropLast(4)), after: "/orders/") {
                return try await self.payOrder(id, Self.body(of: request))
            }
            if path == "/health" || Self.id(in: path, after: "/orders/") != nil || Self.id(in: path, after: "/return/") != nil {
                return .error(.methodNotAllowed, "method not allowed")
            }
            return .error(.notFound, "not found")
        }
    }

    /// The order id after `prefix` in `path`: 1–64 letters, digits, `_` or `-`.
    private static func id(in path: String, after prefix: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let id = path.dropFirst(prefix.count)
        let allowed = id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return (1...64).contains(id.unicodeScalars.count) && allowed ? String(id) : nil
    }

    /// The request's body, at most ``maxBody`` bytes.
    /// - Throws: ``BadRequest`` for a bad or too large `Content-Length`, or a body larger than ``maxBody``.
    private static func body(of request: Request) async throws -> [UInt8] {
        if let length = request.headers[.contentLength] {
            guard let count = Int(length) else { throw BadRequest(message: "bad Content-Length") }
            guard (0...Self.maxBody).contains(count) else { throw BadRequest(message: "body too large") }
        }
        do {
            let buffer = try await request.body.collect(upTo: Self.maxBody)
            return Array(buffer.readableBytesView)
        } catch {
            throw BadRequest(message: "body too large")
        }
    }

    // MARK: Routes

    /// `POST /orders`: validates the order, creates the payment at its provider and stores the order.
    private func createOrder(_ body: [UInt8]) async -> Reply {
        guard let data = JSONValue.parse(body), data.isObject else { return .error(.badRequest, "the body must be a JSON object") }
        guard let name = data["provider"]?.stringValue, let provider = PaymentProvider(rawValue: name) else {
            return .error(.badRequest, "provider must be 'mollie', 'placetopay', 'khipu', 'mit' or 'yuno'")
        }
        guard self.config.enabledProviders.contains(provider) else {
            return .error(.badRequest, "provider \(provider.rawValue) is not configured")
        }
        guard let amount = data["amount"]?.stringValue, Amount.isWellFormed(amount) else {
            return .error(.badRequest, #"amount must be a string of major units, e.g. "10.00""#)
        }
        guard let currency = data["currency"]?.stringValue, currency.unicodeScalars.count == 3,
            currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })
        else {
            return .error(.badRequest, #"currency must be an ISO 4217 code, e.g. "EUR""#)
        }
        let description = data["description"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard let raw = data["description"]?.stringValue, !description.isEmpty, raw.unicodeScalars.count <= 255 else {
            return .error(.badRequest, "description must be a non-empty string of at most 255 characters")
        }
        let zeroDecimal = provider == .mollie ? Amount.zeroDecimalMollie : Amount.zeroDecimalISO
        do {
            _ = try Amount(amount, currency: currency, zeroDecimal: zeroDecimal)
        } catch {
            return .error(.badRequest, "\(error)")
        }

        var order = Order(id: self.store.newID(), provider: provider, amount: amount, currency: currency, description: description)
        // SHOP_BUG=other-amount: the provider is asked for another amount than the order's.
        let charged = self.charged(order)
        let created: (paymentID: String, checkoutURL: JSONValue, status: OrderStatus)
        do {
            switch provider {
            case .mollie: created = try await self.mollie.create(charged)
            case .placetopay: created = try await self.placetopay.create(charged, clientIP: "127.0.0.1")
            case .khipu: created = try await self.khipu.create(charged)
            case .mit: created = try await self.mit.create(charged)
            case .yuno: created = try await self.yuno.create(charged)
            }
        } catch {
            log("order \(order.id): creating the payment failed: \(error)")
            return .error(.badGateway, "\(error)")
        }
        order.paymentID = created.paymentID
        order.checkoutURL = created.checkoutURL
        order.status = created.status == .pending ? .pending : .open
        self.store.add(order)
        log("order \(order.id) created at \(provider.rawValue) as \(created.paymentID)")
        return Reply(
            status: .created,
            body: [
                "id": .string(order.id), "provider": .string(provider.rawValue), "paymentId": .string(created.paymentID),
                "checkoutUrl": created.checkoutURL, "status": .string(order.status.rawValue),
            ])
    }

    /// The order as the provider is asked to charge it: the order itself, unless a seeded bug changes the amount
    /// (`other-amount`: one major unit more; `drop-cents`: the minor units lost).
    private func charged(_ order: Order) -> Order {
        switch self.config.bug {
        case .otherAmount: order.withAmount(Amount.oneUnitMore(order.amount))
        case .dropCents: order.withAmount(Amount.majorUnitsOnly(order.amount))
        default: order
        }
    }

    /// `GET /orders/<id>`: answers the order; in the `read` design it first re-queries the provider while the order
    /// is not final.
    private func getOrder(_ id: String) async -> Reply {
        guard let order = self.store.order(id) else { return .error(.notFound, "order not found") }
        guard self.config.design == .read else { return Reply(status: .ok, body: order.json) }
        // On a provider error the stored status is shown.
        let current = await self.refresh(order, source: .query)
        return Reply(status: .ok, body: current.json)
    }

    /// `GET /return/<id>`: the shopper is back; asks the provider (never trusts the return) and answers the status.
    private func shopperReturn(_ id: String) async -> Reply {
        guard let order = self.store.order(id) else { return .error(.notFound, "order not found") }
        let current: Order
        if self.config.bug == .trustReturn {
            current = self.store.apply(.paid, to: id, source: .return) ?? order
        } else if self.config.design == .notify {
            current = order
        } else {
            current = await self.refresh(order, source: .return)
        }
        return Reply(status: .ok, body: ["id": .string(current.id), "status": .string(current.status.rawValue)])
    }

    /// `POST /webhooks/mollie` (form `id=tr_…`): re-fetches the payment and applies its status. 200 also for an
    /// unknown id (it tells nothing about which ids exist); 503 when Mollie cannot be reached, so Mollie retries.
    private func mollieWebhook(_ body: [UInt8]) async -> Reply {
        let paymentID = Self.formValue("id", in: body) ?? ""
        guard !paymentID.isEmpty else { return .error(.badRequest, "missing id") }
        guard let order = self.store.order(provider: .mollie, paymentID: paymentID) else { return .empty }
        if self.config.bug == .noSignatureCheck {
            // Wrong on purpose: the webhook alone decides.
            self.store.apply(.paid, to: order.id, source: .notification)
            return .empty
        }
        do {
            if let status = try await self.mollie.status(of: paymentID) {
                self.store.apply(status, to: order.id, source: .notification)
            }
        } catch {
            log("order \(order.id): webhook re-query failed: \(error)")
            return .error(.serviceUnavailable, "try again later")
        }
        return .empty
    }

    /// `POST /webhooks/placetopay` (JSON notification): checks the signature, then re-queries the session and applies
    /// its status, never the body's. 400 for an invalid signature (nothing changes); 200 for an unknown requestId;
    /// 503 when the re-query fails.
    private func placetopayNotification(_ body: [UInt8]) async -> Reply {
        guard let data = JSONValue.parse(body), data.isObject else { return .error(.badRequest, "the body must be a JSON object") }
        let requestID = data["requestId"]?.text ?? ""
        if self.config.bug == .noSignatureCheck {
            // Wrong on purpose: no signature check, and the body's status is taken as the truth.
            if let order = self.store.order(provider: .placetopay, paymentID: requestID),
                let status = PlacetoPayClient.map(status: data["status"], payment: nil)
            {
                self.store.apply(status, to: order.id, source: .notification)
            }
            return .empty
        }
        guard self.placetopay.isSignatureValid(data) else {
            log("PlacetoPay notification for requestId \(data["requestId"]?.text ?? "") ignored: invalid signature")
            return .error(.badRequest, "invalid signature")
        }
        guard let order = self.store.order(provider: .placetopay, paymentID: requestID) else { return .empty }
        if let reference = data["reference"], reference != .null, reference != .string(order.id) { return .empty }
        do {
            if let status = try await self.placetopay.status(of: requestID) {
                self.store.apply(status, to: order.id, source: .notification)
            }
        } catch {
            log("order \(order.id): notification re-query failed: \(error)")
            return .error(.serviceUnavailable, "try again later")
        }
        return .empty
    }

    /// `POST /orders/<id>/pay` (`{"token": "…"}`): the app hands over the one-time token Yuno's SDK made for the
    /// order's checkout session; the shop creates the payment from it (§3.5) and applies the status Yuno answered.
    private func payOrder(_ id: String, _ body: [UInt8]) async -> Reply {
        guard let order = self.store.order(id) else { return .error(.notFound, "order not found") }
        guard order.provider == .yuno, let session = order.paymentID else { return .error(.conflict, "only a Yuno order is paid with a token") }
        guard let token = JSONValue.parse(body)?["token"]?.stringValue, !token.isEmpty else { return .error(.badRequest, "token is required") }
        guard order.yunoPaymentID == nil else { return .error(.conflict, "the order already has a payment") }
        let charged = self.charged(order)
        do {
            let (paymentID, status) = try await self.yuno.pay(charged, session: session, token: token)
            self.store.attach(yunoPayment: paymentID, to: id)
            log("order \(id) paid through Yuno payment \(paymentID)")
            let current = status.flatMap { self.store.apply($0, to: id, source: .query) } ?? self.store.order(id) ?? order
            return Reply(status: .created, body: current.json)
        } catch {
            log("order \(id): creating the Yuno payment failed: \(error)")
            return .error(.badGateway, "\(error)")
        }
    }

    /// A Yuno webhook (providers.md §3.8): `{type, type_event, data{payment}}`, signed in `x-hmac-signature`. One
    /// that does not verify is refused; one that does makes the shop fetch the payment and act on what Yuno answers
    /// (webhooks can come late, twice or out of order, §3.13 P1-14).
    private func yunoWebhook(_ body: [UInt8], signature: String?) async -> Reply {
        guard let data = JSONValue.parse(body), let paymentID = data["data"]?["payment"]?["id"]?.stringValue else {
            return .error(.badRequest, "the body must be a Yuno webhook")
        }
        if self.config.bug == .noSignatureCheck {
            // Wrong on purpose: no signature check, and the body's status is taken as the truth.
            if let order = self.store.order(provider: .yuno, paymentID: paymentID),
                let status = YunoClient.map(status: data["data"]?["payment"]?["status"]?.stringValue)
            {
                self.store.apply(status, to: order.id, source: .notification)
            }
            return .empty
        }
        guard self.yuno.isSignatureValid(signature, body: body) else {
            log("Yuno webhook for payment \(paymentID) ignored: invalid signature")
            return .error(.badRequest, "invalid signature")
        }
        guard let order = self.store.order(provider: .yuno, paymentID: paymentID) else { return .empty }
        if self.config.bug == .paidMovedBack {
            // Wrong on purpose: the verified body's status is applied as it is, even over a final one.
            if let status = YunoClient.map(status: data["data"]?["payment"]?["status"]?.stringValue) {
                self.store.apply(status, to: order.id, source: .notification, overridingFinal: true)
            }
            return .empty
        }
        do {
            if let status = try await self.yuno.status(of: paymentID) { self.store.apply(status, to: order.id, source: .notification) }
        } catch {
            log("order \(order.id): fetching the Yuno payment failed: \(error)")
            return .error(.serviceUnavailable, "try again")
        }
        return .empty
    }

    // MARK: Helpers

    /// The result MIT posts to the response URL (providers.md §5.3): `strResponse`, encrypted with the key. One that
    /// does not decrypt, or names another amount than the order's, changes nothing.
    private func mitResult(_ body: [UInt8]) async -> Reply {
        guard let blob = Self.formValue("strResponse", in: body), !blob.isEmpty else { return .error(.badRequest, "missing strResponse") }
        guard let result = self.mit.read(result: blob) else {
            log("MIT result ignored: it does not decrypt with the key")
            return .error(.badRequest, "invalid result")
        }
        guard let order = self.store.order(result.reference), order.provider == .mit else { return .empty }
        if result.status == .paid {
            let expected = try? Amount(order.amount, currency: order.currency, zeroDecimal: [])
            let paid = try? Amount(result.amount, currency: order.currency, zeroDecimal: [])
            guard let expected, let paid, expected.text == paid.text else {
                log("MIT result for order \(order.id) ignored: amount \(result.amount) is not the order's")
                return .empty
            }
        }
        self.store.apply(result.status, to: order.id, source: .notification)
        return .empty
    }

    /// An API 3.0 notification (providers.md §2.7): the payment JSON, signed in `x-khipu-signature`. A notification
    /// that does not verify is refused; one that does makes the shop re-fetch the payment and act on what khipu
    /// answers.
    private func khipuNotification(_ body: [UInt8], signature: String?) async -> Reply {
        guard let data = JSONValue.parse(body), data.isObject, let paymentID = data["payment_id"]?.stringValue else {
            return .error(.badRequest, "the body must be a khipu payment")
        }
        if self.config.bug == .noSignatureCheck {
            // Wrong on purpose: no signature check, and the body's status is taken as the truth.
            if let order = self.store.order(provider: .khipu, paymentID: paymentID),
                let status = KhipuClient.map(status: data["status"]?.stringValue, detail: data["status_detail"]?.stringValue)
            {
                self.store.apply(status, to: order.id, source: .notification)
            }
            return .empty
        }
        guard self.khipu.isSignatureValid(header: signature, body: body) else {
            log("khipu notification for payment \(paymentID) ignored: invalid signature")
            return .error(.badRequest, "invalid signature")
        }
        guard let order = self.store.order(provider: .khipu, paymentID: paymentID) else { return .empty }
        do {
            if let status = try await self.khipu.status(of: paymentID) { self.store.apply(status, to: order.id, source: .notification) }
        } catch {
            log("order \(order.id): re-fetching the khipu payment failed: \(error)")
            return .error(.serviceUnavailable, "try again")
        }
        return .empty
    }

    /// Asks the provider for a non-final `order` and applies the answer; answers the order as it is afterwards (as it
    /// was, when the provider cannot be asked).
    private func refresh(_ order: Order, source: UpdateSource) async -> Order {
        guard !order.status.isFinal, let paymentID = order.paymentID else { return order }
        let status: OrderStatus?
        do {
            switch order.provider {
            case .mollie: status = try await self.mollie.status(of: paymentID)
            case .placetopay: status = try await self.placetopay.status(of: paymentID)
            case .khipu: status = try await self.khipu.status(of: paymentID)
            case .mit: status = nil  // WebPay Plus has no status query: only the result MIT posts decides
            case .yuno:
                // Until the app hands over the SDK's token there is no payment to ask about.
                guard let payment = self.store.order(order.id)?.yunoPaymentID else { return order }
                status = try await self.yuno.status(of: payment)
            }
        } catch {
            log("order \(order.id): re-query failed: \(error)")
            return self.store.order(order.id) ?? order
        }
        if let status { return self.store.apply(status, to: order.id, source: source) ?? order }
        return self.store.order(order.id) ?? order
    }

    /// The first value of field `name` in a form body (`application/x-www-form-urlencoded`); `nil` when it is
    /// missing.
    static func formValue(_ name: String, in body: [UInt8]) -> String? {
        /// A form-encoded text decoded: `+` is a space, `%XX` a byte.
        func decode(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        for field in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if decode(parts[0]) == name { return parts.count > 1 ? decode(parts[1]) : "" }
        }
        return nil
    }
}
