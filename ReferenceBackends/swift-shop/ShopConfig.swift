// The shop's settings, read from the environment.
import Foundation

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
