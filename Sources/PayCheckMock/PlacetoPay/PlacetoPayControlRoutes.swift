import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// The PlacetoPay control API under `/__paycheck/placetopay/`: sites, the payer's actions and notifications.
///
/// Errors are `{"error": message}` with 400 (bad input), 404 (unknown session or site) or 409 (wrong state).
struct PlacetoPayControlRoutes: Sendable {
    /// The prefix of every route.
    static let root = String(ControlAPI.providerRoot("placetopay").dropFirst())

    /// The shared state and environment.
    let context: PlacetoPayContext

    /// Adds the routes to `router`: the declared control actions (``PlacetoPayControlAction``) and a read of a site.
    func register(on router: Router<BasicRequestContext>) {
        let context = self.context
        router.get("\(Self.root)/sites/{login}") { _, requestContext -> Response in
            let login = try Self.login(requestContext)
            guard let site = context.store.withState({ $0.sites[login] }) else {
                throw MockHTTPError(.notFound, "no PlacetoPay site \(MockHTTPError.quoted(login)); create it with 'mock: site'")
            }
            return MockResponse.json(site.json)
        }
        // Each handler is a method; the closures only forward (an async closure holding the whole body crashed the
        // Swift 6.3 optimizer in release builds, while splitting the coroutine).
        ControlActionRoutes.register(
            PlacetoPayProvider(),
            handlers: [
                "payer/pay": { try await self.pay($0) },
                "payer/cancel": { try await self.payerCancel($0) },
                "payer/abandon": { try await self.abandon($0) },
                "mock/site": { try await self.site($0) },
                "mock/notifications": { try await self.notifications(try await Self.object($0)) },
                "mock/notify": { try await self.notify($0) },
                "mock/forge": { try await self.forge($0) },
            ], on: router)
    }

    /// `payer: pay`: the payer pays on the checkout page.
    private func pay(_ request: Request) async throws -> Response {
        let attempt = try PlacetoPayPayerAttempt(json: try await Self.object(request))
        let now = context.environment.clock.now()
        return MockResponse.json(try await context.transact { state, outbox in try state.pay(attempt, now: now, outbox: &outbox) })
    }

    /// `payer: cancel`: the payer's "I don't want to continue".
    private func payerCancel(_ request: Request) async throws -> Response {
        let requestId = try Self.requestIdOnly(try await Self.object(request))
        let now = context.environment.clock.now()
        return MockResponse.json(
            try await context.transact { state, outbox in try state.payerCancel(requestId, now: now, outbox: &outbox) })
    }

    /// `payer: abandon`: the payer closes the page.
    private func abandon(_ request: Request) async throws -> Response {
        let requestId = try Self.requestIdOnly(try await Self.object(request))
        let now = context.environment.clock.now()
        return MockResponse.json(try await context.transact { state, outbox in try state.abandon(requestId, now: now, outbox: &outbox) })
    }

    /// `mock: site {login, …}`: creates or changes a site.
    private func site(_ request: Request) async throws -> Response {
        try self.putSite(try await Self.object(request))
    }

    /// The synchronous part of `mock: site` (kept out of the async function: see ``register(on:)``).
    private func putSite(_ body: [String: Value]) throws -> Response {
        var json = body
        guard let login = json.removeValue(forKey: "login")?.stringValue, !login.isEmpty else {
            throw MockHTTPError(.badRequest, "'login' must be a non-empty string (a unique login, e.g. \"site-{{ random(8) }}\")")
        }
        let members = json
        return MockResponse.json(try context.store.withState { state in try state.putSite(login, json: members) })
    }

    /// `mock: notifications {requestId?}`: the delivery log, oldest first, optionally for one session.
    ///
    /// Reading the log of one session evaluates that session first, like any other read, so an expiry that is due
    /// is noticed (and notified) before the log is shown.
    private func notifications(_ json: [String: Value]) async throws -> Response {
        try PlacetoPayPayerAttempt.rejectUnknown(json, allowed: ["requestId"])
        var requestId: Int?
        if let raw = json["requestId"], raw != .null {
            let id = try PlacetoPayPayerAttempt.requestId(json)
            requestId = id
            let now = self.context.environment.clock.now()
            try await self.context.transact { state, outbox in
                _ = state.refreshedSession(id, now: now, outbox: &outbox)
            }
        }
        let deliveries = self.context.store.withState { state in
            state.deliveries.filter { requestId == nil || $0.notification.requestId == requestId }
        }
        return MockResponse.json(
            .object(["count": .int(deliveries.count), "notifications": .array(deliveries.map(\.json))]))
    }

    /// `mock: forge {"requestId": N, "status": "APPROVED", "url": "http…"?}`: sends the site's notification URL (or
    /// `url`) a notification claiming `status` for the session, signed without the site's key. The session does
    /// not change. Answers the delivery.
    private func forge(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        try PlacetoPayPayerAttempt.rejectUnknown(json, allowed: ["requestId", "status", "url"])
        let requestId = try PlacetoPayPayerAttempt.requestId(json)
        guard let status = json["status"]?.stringValue.flatMap(PlacetoPayStatus.Name.init(rawValue:)), [.approved, .rejected].contains(status) else {
            throw MockHTTPError(.badRequest, "'status' must be APPROVED or REJECTED, got \(MockHTTPError.quoted(json["status"]?.displayText ?? "nothing"))")
        }
        let url = json["url"]?.stringValue
        let now = self.context.environment.clock.now()
        let notification = try await self.context.transact { state, outbox in
            guard let session = state.refreshedSession(requestId, now: now, outbox: &outbox) else {
                throw MockHTTPError(.notFound, "no PlacetoPay session with requestId \(requestId)")
            }
            guard let site = state.sites[session.login], let target = url ?? site.notificationUrl else {
                throw MockHTTPError(.badRequest, "'url' is required: site '\(session.login)' has no notificationUrl")
            }
            return PlacetoPayNotification(forging: status, for: session, site: site, url: target, now: now, key: "forged-" + site.secretKey.uppercased() + "x")
        }
        return Self.answer(await self.context.deliver(notification))
    }

    /// The answer of `mock: notify` and `mock: forge`: what was sent where, and what the merchant answered.
    private static func answer(_ delivery: PlacetoPayNotification.Delivery) -> Response {
        MockResponse.json(
            .object([
                "responseStatus": delivery.responseStatus.map { .int($0) } ?? .null,
                "error": delivery.error.map { .string($0) } ?? .null,
                "url": .string(delivery.notification.url),
                "body": delivery.notification.body,
                "signature": .string(delivery.notification.signature),
            ]))
    }

    /// `mock: notify {"requestId": N, "url": "http…"?}`: sends the notification of a final session again, now,
    /// to `url` (default: the site's notification URL). Answers the delivery, including a failed one.
    private func notify(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        try PlacetoPayPayerAttempt.rejectUnknown(json, allowed: ["requestId", "url"])
        let requestId = try PlacetoPayPayerAttempt.requestId(json)
        var url: String?
        if let value = json["url"], value != .null {
            guard let text = value.stringValue, PlacetoPayState.isHTTPURL(text) else {
                throw MockHTTPError(
                    .badRequest,
                    "'url' must be an http:// or https:// URL, got \(MockHTTPError.quoted(value.displayText))")
            }
            url = text
        }
        let now = self.context.environment.clock.now()
        let notification = try await self.context.transact { state, outbox in
            try state.resendNotification(requestId, url: url, now: now, outbox: &outbox)
        }
        return Self.answer(await self.context.deliver(notification))
    }

    /// The flat JSON object body of a control request.
    private static func object(_ request: Request) async throws -> [String: Value] {
        try MockRequestBody.object(try await ControlRoutes.body(of: request))
    }

    /// The `requestId` of a body that has nothing else.
    private static func requestIdOnly(_ json: [String: Value]) throws(MockHTTPError) -> Int {
        try PlacetoPayPayerAttempt.rejectUnknown(json, allowed: ["requestId"])
        return try PlacetoPayPayerAttempt.requestId(json)
    }

    /// The `{login}` path parameter, percent-decoded.
    private static func login(_ context: BasicRequestContext) throws(MockHTTPError) -> String {
        guard let raw = context.parameters.get("login"), !raw.isEmpty else {
            throw MockHTTPError(.badRequest, "missing site login in the path")
        }
        return raw.removingPercentEncoding ?? raw
    }
}
