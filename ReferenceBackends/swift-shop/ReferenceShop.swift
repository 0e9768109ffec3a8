// reference-shop: PayCheck's reference merchant backend. It integrates Mollie, PlacetoPay, khipu, MIT and Yuno the way
// a careful merchant would, and PayCheck tests it as a black box through ReferenceBackends/swift-shop/contract.yaml. It
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
//
// This file starts it. `ShopConfig.swift` and `ShopBug.swift` read the environment, `Shop.swift` serves the routes and
// `Shop+Notifications.swift` what the providers post back, `Orders.swift` keeps the orders, and `Providers/` holds
// each provider's client (`MollieClient.swift`, `PlacetoPayClient.swift`, `KhipuClient.swift`, `MITClient.swift`,
// `YunoClient.swift`) over the shared `ProviderHTTP.swift`.
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
