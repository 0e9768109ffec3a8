import Foundation
import Hummingbird
import PayCheckCore

/// The PlacetoPay control API under `/__paycheck/placetopay/`: sites, the payer's actions and notifications.
///
/// Errors are `{"error": message}` with 400 (bad input), 404 (unknown session or site) or 409 (wrong state).
struct PlacetoPayControlRoutes: Sendable {
    /// The prefix of every route.
    static let root = "__paycheck/placetopay"

    /// The shared state and environment.
    let context: PlacetoPayContext

    /// Adds the routes to `router`.
    func register(on router: Router<BasicRequestContext>) {
        let context = self.context
        let root = Self.root
        router.put("\(root)/sites/{login}") { request, requestContext -> Response in
            let login = try Self.login(requestContext)
            let json = try MockRequestBody.object(try await ControlRoutes.body(of: request))
            return MockResponse.json(try context.store.withState { state in try state.putSite(login, json: json) })
        }
        router.get("\(root)/sites/{login}") { _, requestContext -> Response in
            let login = try Self.login(requestContext)
            guard let site = context.store.withState({ $0.sites[login] }) else {
                throw MockHTTPError(.notFound, "no PlacetoPay site \(MockHTTPError.quoted(login)); create it with PUT")
            }
            return MockResponse.json(site.json)
        }
        router.post("\(root)/payer/pay") { request, _ -> Response in
            let attempt = try PlacetoPayPayerAttempt(json: try await Self.object(request))
            let now = context.environment.clock.now()
            return MockResponse.json(
                try await context.transact { state, outbox in try state.pay(attempt, now: now, outbox: &outbox) })
        }
        router.post("\(root)/payer/cancel") { request, _ -> Response in
            let requestId = try Self.requestIdOnly(try await Self.object(request))
            let now = context.environment.clock.now()
            return MockResponse.json(
                try await context.transact { state, outbox in
                    try state.payerCancel(requestId, now: now, outbox: &outbox)
                })
        }
        router.post("\(root)/payer/abandon") { request, _ -> Response in
            let requestId = try Self.requestIdOnly(try await Self.object(request))
            let now = context.environment.clock.now()
            return MockResponse.json(
                try await context.transact { state, outbox in try state.abandon(requestId, now: now, outbox: &outbox) })
        }
        router.get("\(root)/notifications") { request, _ -> Response in try await self.notifications(request) }
        router.post("\(root)/notify") { request, _ -> Response in try await self.notify(request) }
    }

    /// `GET …/notifications?requestId=N`: the delivery log, oldest first, optionally for one session.
    ///
    /// Reading the log of one session evaluates that session first, like any other read, so an expiry that is due
    /// is noticed (and notified) before the log is shown.
    private func notifications(_ request: Request) async throws -> Response {
        var requestId: Int?
        if let raw = request.uri.queryParameters["requestId"] {
            guard let id = Int(String(raw)) else {
                throw MockHTTPError(
                    .badRequest, "'requestId' must be an integer, got \(MockHTTPError.quoted(String(raw)))")
            }
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

    /// `POST …/notify {"requestId": N, "url": "http…"?}`: sends the notification of a final session again, now,
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
        let delivery = await self.context.deliver(notification)
        return MockResponse.json(
            .object([
                "responseStatus": delivery.responseStatus.map { .int($0) } ?? .null,
                "error": delivery.error.map { .string($0) } ?? .null,
                "url": .string(notification.url),
                "body": delivery.notification.body,
                "signature": .string(notification.signature),
            ]))
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
