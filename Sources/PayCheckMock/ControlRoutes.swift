import Hummingbird
import PayCheckCore

/// Registers the control API under `/__paycheck/` (echo is answered by ``MockMiddleware``).
struct ControlRoutes: Sendable {
    /// The host whose state the routes read and change.
    let host: MockHost

    /// Adds every control route to `router`.
    func register(on router: Router<BasicRequestContext>) {
        let root = ControlPath.root
        router.get("\(root)/health") { _, _ in self.health() }
        router.post("\(root)/reset") { _, _ in
            await self.host.reset()
            return MockResponse.json(.object(["status": .string("reset")]))
        }
        router.get("\(root)/clock") { _, _ in self.clockResponse() }
        router.post("\(root)/clock") { request, _ in try await self.adjustClock(request) }
        router.get("\(root)/journal") { request, _ in try self.journal(request) }
        router.delete("\(root)/journal") { _, _ in
            self.host.journal.clear()
            return MockResponse.noContent()
        }
        self.registerKeyValue(on: router)
        self.registerFaults(on: router)
        self.registerWebhooks(on: router)
        self.registerLimits(on: router)
    }

    /// `GET /__paycheck/health`.
    private func health() -> Response {
        MockResponse.json(
            .object([
                "status": .string("ok"),
                "providers": .array(self.host.providers.map { .string($0.id) }),
                "now": .string(ISOTimestamp.format(self.host.clock.now())),
            ])
        )
    }

    /// The clock change `object` asks for; a refused one is a 400 naming the bad value.
    // Not inlined into the async route: a typed throw there is what crashes the 6.3 optimizer (docs/release-build.md).
    @inline(never)
    private static func adjustment(_ object: [String: Value]) throws -> ClockAdjustment {
        do {
            return try ClockAdjustment(json: object)
        } catch {
            throw MockHTTPError(.badRequest, error.message)
        }
    }

    /// `{"now": …}` for the clock routes.
    private func clockResponse() -> Response {
        MockResponse.json(.object(["now": .string(ISOTimestamp.format(self.host.currentClock.now()))]))
    }

    /// `POST /__paycheck/clock` with `{"advance": "31m"}` or `{"set": "<ISO 8601>"}`, on the clock of the
    /// request's scope (``ClockScope/headerName``); answers once every scheduler job that became due has run.
    private func adjustClock(_ request: Request) async throws -> Response {
        let object = try MockRequestBody.object(try await Self.body(of: request))
        switch try Self.adjustment(object) {
        case .advance(let seconds):
            self.host.currentClock.advance(by: seconds)
        case .set(let date):
            self.host.currentClock.set(to: date)
        case .reset:
            self.host.currentClock.reset()
        }
        await self.host.scheduler.runDue()
        return self.clockResponse()
    }

    /// `GET /__paycheck/journal?path=<prefix>&scope=<scope>&origin=merchant|direct&from=<sequence>`; `next` in the
    /// answer is the sequence number the next request will get.
    private func journal(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        var filter = RequestJournal.Filter(pathPrefix: query["path"].map(String.init) ?? "", scope: query["scope"].map(String.init))
        if let origin = query["origin"] {
            guard let parsed = RecordedRequest.Origin(rawValue: String(origin)) else {
                throw MockHTTPError(.badRequest, "unknown origin \(MockHTTPError.quoted(String(origin))): expected merchant or direct")
            }
            filter.origin = parsed
        }
        if let from = query["from"] {
            guard let number = Int(from), number >= 0 else {
                throw MockHTTPError(.badRequest, "invalid from \(MockHTTPError.quoted(String(from))): expected a sequence number")
            }
            filter.from = number
        }
        let next = self.host.journal.nextSequence
        return MockResponse.json(JournalPage(requests: self.host.journal.entries(filter), next: next).json)
    }

    /// The request body, already collected (and size-checked) by ``MockMiddleware``.
    static func body(of request: Request) async throws -> [UInt8] {
        let buffer = try await request.body.collect(upTo: .max)
        return Array(buffer.readableBytesView)
    }
}
