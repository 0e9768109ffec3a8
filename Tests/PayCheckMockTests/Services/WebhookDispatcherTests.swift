import PayCheckCore
import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("Webhook dispatcher: retries on the mock clock, attempt log, control route")
struct WebhookDispatcherTests {
    /// The scope header for test requests.
    static let scopeHeader = HTTPFields.Element.Name(ClockScope.headerName)!

    /// A webhook to `http://merchant.test/hook` with `retries`.
    private func webhook(_ retries: [Duration], provider: String = "acme", scope: ClockScope = .default) -> Webhook {
        Webhook(
            provider: provider, url: "http://merchant.test/hook", headers: [("Content-Type", "application/json")],
            body: Array(#"{"event":"paid"}"#.utf8), schedule: WebhookRetrySchedule(retriesAfter: retries),
            scope: scope)
    }

    @Test("acceptance: a PlacetoPay notification answered 500 is retried on the site's schedule as the clock advances")
    func placetoPayRetriedOnSchedule() async throws {
        let receiver = ScriptedWebhookReceiver([.reply(500, "try later"), .reply(200, "ok")])
        let host = MockHost(providers: [PlacetoPayMock()], clock: fixedClock(), webhookTransport: receiver)
        try await withRouter(host) { client in
            let mock = PlacetoPayHarness(client: client, host: host)
            let site = try await mock.control(
                .post, "mock/site",
                [
                    "login": "retry-site",
                    "secretKey": "retry-secret", "notificationUrl": "http://merchant.example/hook",
                    "notificationRetries": ["1m", "5m", "30m"],
                ])
            #expect(site.status == .ok)
            #expect(value(site.object(), "notificationRetries") as? [String] == ["60s", "300s", "1800s"])
            let signer = PlacetoPaySigner(login: "retry-site", secret: "retry-secret")
            let requestId = try await mock.create(signer: signer)
            #expect(try await mock.pay(requestId, card: "4110760000000081").status == .ok)

            // Attempt 1 was sent while the payer's request ran, and failed.
            #expect(receiver.received.count == 1)
            let first = try await self.log(client)
            #expect(first.count == 1)
            #expect(first.first?["status"] as? Int == 500)
            #expect(first.first?["responseBody"] as? String == "try later")
            #expect(first.first?["nextAttemptAt"] as? String == "2026-01-15T10:01:00Z")

            // 59 s later nothing is due; at 60 s attempt 2 is sent before the clock route answers.
            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"59s"}"#)
            #expect(receiver.received.count == 1)
            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"1s"}"#)
            #expect(receiver.received.count == 2)
            #expect(receiver.received[1] == receiver.received[0])

            let log = try await self.log(client, query: "?provider=placetopay")
            #expect(log.map { $0["attempt"] as? Int } == [1, 2])
            #expect(log.map { $0["status"] as? Int } == [500, 200])
            #expect(log.map { $0["sentAt"] as? String } == ["2026-01-15T10:00:00Z", "2026-01-15T10:01:00Z"])
            #expect(log.map { $0["deliveryId"] as? String } == ["wh-1", "wh-1"])
            #expect(log.last?["delivered"] as? Bool == true)
            #expect(log.last?["nextAttemptAt"] is NSNull)
            #expect(!host.scheduler.pendingJobs.contains { $0.label.hasPrefix("webhook") })

            // PlacetoPay's own log has both attempts too.
            let own = try await mock.control(.post, "mock/notifications", ["requestId": requestId]).object()
            #expect(own["count"] as? Int == 2)
        }
    }

    @Test("PlacetoPay's default is one attempt (providers.md §1.9): a 500 is never retried")
    func placetoPayDefaultIsOnce() async throws {
        let receiver = ScriptedWebhookReceiver([.reply(500, "")])
        let host = MockHost(providers: [PlacetoPayMock()], clock: fixedClock(), webhookTransport: receiver)
        try await withRouter(host) { client in
            let mock = PlacetoPayHarness(client: client, host: host)
            _ = try await mock.control(.post, "mock/site", ["login": "once-site", "secretKey": "s", "notificationUrl": "http://merchant.example/hook"])
            let requestId = try await mock.create(signer: PlacetoPaySigner(login: "once-site", secret: "s"))
            _ = try await mock.pay(requestId, card: "4110760000000081")
            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"2d"}"#)
            #expect(receiver.received.count == 1)
            let log = try await self.log(client)
            #expect(log.first?["maximumAttempts"] as? Int == 1)
            #expect(log.first?["nextAttemptAt"] is NSNull)
        }
    }

    @Test("one clock jump past several offsets sends every due retry, in order, with their scheduled times")
    func jumpSendsAllDueRetries() async throws {
        let clock = fixedClock()
        let scopes = MockClockScopes(defaultClock: clock)
        let scheduler = MockScheduler(scopes: scopes)
        let receiver = ScriptedWebhookReceiver([.failure("connection refused"), .reply(503, ""), .reply(204, "")])
        let dispatcher = WebhookDispatcher(transport: receiver, scheduler: scheduler, scopes: scopes)

        let first = await dispatcher.deliver(self.webhook([.seconds(60), .seconds(300), .seconds(1800)]))
        #expect(first.error == "connection refused")
        #expect(first.status == nil)
        clock.advance(by: 3600)
        await scheduler.runDue()

        let attempts = dispatcher.attempts()
        #expect(attempts.map(\.attempt) == [1, 2, 3])
        #expect(attempts.map(\.status) == [nil, 503, 204])
        #expect(attempts.map(\.scheduledAt) == [0, 60, 300].map { fixedBase.addingTimeInterval($0) })
        #expect(attempts.map(\.sentAt) == [fixedBase] + Array(repeating: fixedBase.addingTimeInterval(3600), count: 2))
        #expect(attempts.last?.delivered == true)
        #expect(receiver.received.count == 3)
        #expect(scheduler.pendingJobs.isEmpty)
    }

    @Test("the last attempt is not retried and long response bodies are cut at 2 KB")
    func exhaustedAndTruncated() async throws {
        let clock = fixedClock()
        let scopes = MockClockScopes(defaultClock: clock)
        let scheduler = MockScheduler(scopes: scopes)
        let receiver = ScriptedWebhookReceiver([.reply(500, String(repeating: "x", count: 5000))])
        let dispatcher = WebhookDispatcher(transport: receiver, scheduler: scheduler, scopes: scopes)

        await dispatcher.deliver(self.webhook([.seconds(10)]))
        clock.advance(by: 60)
        await scheduler.runDue()
        let attempts = dispatcher.attempts()
        #expect(attempts.count == 2)
        #expect(attempts.allSatisfy { $0.responseBody.utf8.count == WebhookDispatcher.responseBodyLimit })
        #expect(attempts.allSatisfy { $0.responseBodyTruncated })
        #expect(attempts.last?.nextAttemptAt == nil)
        #expect(scheduler.pendingJobs.isEmpty)
    }

    @Test("the log keeps the most recent attempts up to its limit")
    func logLimit() async throws {
        let scopes = MockClockScopes(defaultClock: fixedClock())
        let dispatcher = WebhookDispatcher(
            transport: ScriptedWebhookReceiver([.reply(204, "")]), scheduler: MockScheduler(scopes: scopes),
            scopes: scopes, maximumLogEntries: 2)
        for _ in 0..<3 {
            await dispatcher.deliver(self.webhook([]))
        }
        #expect(dispatcher.attempts().map(\.deliveryID) == ["wh-2", "wh-3"])
    }

    @Test("retries follow their own clock scope: advancing the default clock does not send a scoped retry")
    func retriesUseTheirScope() async throws {
        let clock = fixedClock()
        let scopes = MockClockScopes(defaultClock: clock)
        let scheduler = MockScheduler(scopes: scopes)
        let receiver = ScriptedWebhookReceiver([.reply(500, ""), .reply(200, "")])
        let dispatcher = WebhookDispatcher(transport: receiver, scheduler: scheduler, scopes: scopes)
        let scope = try #require(ClockScope("run-a"))

        await dispatcher.deliver(self.webhook([.seconds(60)], scope: scope))
        clock.advance(by: 3600)
        await scheduler.runDue()
        #expect(receiver.received.count == 1)
        scopes.clock(for: scope).advance(by: 60)
        await scheduler.runDue()
        #expect(receiver.received.count == 2)
        #expect(dispatcher.attempts(scope: scope).count == 2)
        #expect(dispatcher.attempts(scope: .default).isEmpty)
    }

    @Test("GET /__paycheck/webhooks lists attempts, filters by provider and scope, and reset clears it")
    func logRoute() async throws {
        let receiver = ScriptedWebhookReceiver([.reply(500, "")])
        let host = MockHost(providers: [], clock: fixedClock(), webhookTransport: receiver)
        await host.webhooks.deliver(self.webhook([.seconds(60)], provider: "acme"))
        await host.webhooks.deliver(self.webhook([], provider: "other", scope: try #require(ClockScope("run-b"))))
        try await withRouter(host) { client in
            let all = try await self.log(client)
            #expect(all.map { $0["provider"] as? String } == ["acme", "other"])
            #expect(all.first?["url"] as? String == "http://merchant.test/hook")
            #expect(all.first?["scope"] as? String == "default")
            #expect(all.last?["scope"] as? String == "run-b")
            #expect(all.first?["error"] is NSNull)
            #expect(try await self.log(client, query: "?provider=other").count == 1)
            #expect(try await self.log(client, query: "?provider=nobody").isEmpty)
            #expect(try await self.log(client, query: "?scope=run-b").count == 1)
            let bad = try await client.send(.get, "/__paycheck/webhooks?scope=no%20spaces")
            #expect(bad.status == .badRequest)

            #expect(host.scheduler.pendingJobs.count == 1)
            #expect(try await client.send(.post, "/__paycheck/reset").status == .ok)
            #expect(try await self.log(client).isEmpty)
            #expect(host.scheduler.pendingJobs.isEmpty)
        }
    }

    /// `GET /__paycheck/webhooks` + `query`, parsed as an array of objects.
    private func log(_ client: any TestClientProtocol, query: String = "") async throws -> [[String: Any]] {
        let response = try await client.send(.get, "/__paycheck/webhooks\(query)")
        #expect(response.status == .ok)
        #expect(response.isJSON)
        return try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [[String: Any]])
    }
}
