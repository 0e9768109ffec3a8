import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// The provider routes under `/placetopay` (providers.md §1): every endpoint is a `POST` with a JSON body carrying
/// `auth` (§1.1, §1.2); anything else under `/placetopay` is a 404 `NA` "Page not found" (§1.3).
struct PlacetoPayAPIRoutes: Sendable {
    /// One authenticated API call.
    struct Call {
        /// The parsed body.
        var body: [String: Value]
        /// The authenticated site.
        var site: PlacetoPaySite
        /// Mock time of the request.
        var now: Date
        /// The `{requestId}` path parameter, for the routes that have one.
        var requestId: Int?

        /// The path's `requestId`.
        func sessionId() throws(PlacetoPayFailure) -> Int {
            guard let requestId else { throw PlacetoPayFailure.pageNotFound(at: self.now) }
            return requestId
        }
    }

    /// An operation on the state for one call.
    typealias Operation = @Sendable (inout PlacetoPayState, inout [PlacetoPayNotification], Call) throws -> Value

    /// Every method answered under `/placetopay`; the ones a route does not serve get `NA`.

    /// The shared state and environment.
    let context: PlacetoPayContext

    /// Adds the routes to `router`.
    func register(on router: Router<BasicRequestContext>) {
        let baseURL = self.context.environment.baseURL
        self.api("placetopay/api/session", on: router) { state, _, call in
            try state.createSession(call.body, site: call.site, now: call.now, baseURL: baseURL())
        }
        self.api("placetopay/api/session/{requestId}", on: router) { state, outbox, call in
            try state.querySession(try call.sessionId(), site: call.site, now: call.now, outbox: &outbox)
        }
        self.api("placetopay/api/session/{requestId}/cancel", on: router) { state, outbox, call in
            try state.cancelSession(try call.sessionId(), site: call.site, now: call.now, outbox: &outbox)
        }
        self.api("placetopay/api/transaction", on: router) { state, outbox, call in
            try state.transactionAction(call.body, site: call.site, now: call.now, outbox: &outbox)
        }
        self.api("placetopay/api/reverse", on: router) { state, outbox, call in
            try state.legacyReverse(call.body, site: call.site, now: call.now, outbox: &outbox)
        }
        self.api("placetopay/api/collect", on: router) { state, outbox, call in
            try state.collect(call.body, site: call.site, now: call.now, baseURL: baseURL(), outbox: &outbox)
        }
        self.api("placetopay/api/instrument/invalidate", on: router) { state, _, call in
            try state.invalidateToken(call.body, site: call.site, now: call.now)
        }
        self.api("placetopay/api/gateway/token", on: router) { state, _, call in
            try state.gatewayToken(call.body, site: call.site, now: call.now)
        }
        self.api("placetopay/api/gateway/information", on: router) { state, _, call in
            try state.gatewayInformation(call.body, site: call.site, now: call.now)
        }
        self.registerCheckoutPage(on: router)
    }

    /// Adds `POST path` running `operation` after parsing and authenticating the body (other methods: the host's
    /// unrouted rule, ``PlacetoPayMock/unrouted(method:path:allowed:now:)``).
    private func api(_ path: String, on router: Router<BasicRequestContext>, _ operation: @escaping Operation) {
        let context = self.context
        router.post(RouterPath(path)) { request, requestContext -> Response in
            let clock = context.environment.clock
            let now = clock.now()
            let requestId = try Self.requestId(requestContext, now: now)
            let body = try await Self.body(of: request, now: now)
            let wallNow = clock.wallNow()
            let json = try await context.transact { state, outbox in
                let site = try state.authenticate(body, wallNow: wallNow, now: now)
                return try operation(&state, &outbox, Call(body: body, site: site, now: now, requestId: requestId))
            }
            return MockResponse.json(json)
        }
    }

    /// `GET` and `POST /placetopay/session/{requestId}/{hash}`: the process URL's page (§1.4, §1.6,
    /// ``PlacetoPayCheckoutPage``).
    private func registerCheckoutPage(on router: Router<BasicRequestContext>) {
        let page = PlacetoPayCheckoutPage(context: self.context)
        let path = "placetopay/session/{requestId}/{hash}"
        router.get(RouterPath(path)) { _, requestContext in try await page.show(requestContext) }
        router.post(RouterPath(path)) { request, requestContext in try await page.submit(request, requestContext) }
    }

    /// The `{requestId}` path parameter: `nil` when the route has none; `NA` when it is not a number.
    private static func requestId(_ context: BasicRequestContext, now: Date) throws(PlacetoPayFailure) -> Int? {
        guard let raw = context.parameters.get("requestId") else { return nil }
        guard !raw.isEmpty, raw.count < 16, raw.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(raw) else {
            throw PlacetoPayFailure.pageNotFound(at: now)
        }
        return id
    }

    /// The JSON object body of `request`.
    ///
    /// Choice (§1.1, §1.3): without a JSON content type the live server reads the body as text and finds no
    /// `auth`, answering "malformed authentication"; the mock answers 401 with auth code 100 for a missing JSON
    /// content type, a body that is not JSON, or JSON that is not an object.
    private static func body(of request: Request, now: Date) async throws -> [String: Value] {
        let bytes = try await ControlRoutes.body(of: request)
        guard Self.isJSON(request.headers[.contentType]), let body = JSONText.parse(bytes)?.objectValue else {
            throw PlacetoPayFailure.authentication(.malformed, locale: nil, at: now)
        }
        return body
    }

    /// Whether `contentType` is `application/json` or an `application/…+json` type (parameters ignored).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        // The usual header, without the Foundation trimming and lower-casing below (seen in the profile).
        if contentType == "application/json" { return true }
        let media = (contentType.split(separator: ";").first.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }
}
