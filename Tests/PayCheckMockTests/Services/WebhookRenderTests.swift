import PayCheckCore
import Foundation
import PayCheckMock
import Testing

@Suite("Webhook dispatcher: per-attempt bodies and the provider's acknowledgement rule")
struct WebhookRenderTests {
    @Test("render builds each attempt's headers and body; without it every attempt sends the same bytes")
    func renderPerAttempt() async throws {
        let clock = fixedClock()
        let scopes = MockClockScopes(defaultClock: clock)
        let scheduler = MockScheduler(scopes: scopes)
        let receiver = ScriptedWebhookReceiver([.reply(500, ""), .reply(500, ""), .reply(200, "")])
        let dispatcher = WebhookDispatcher(transport: receiver, scheduler: scheduler, scopes: scopes)
        var webhook = Webhook(
            provider: "acme", url: "http://merchant.test/hook", headers: [("X-Attempt", "1")], body: Array("attempt 1".utf8),
            schedule: WebhookRetrySchedule(retriesAfter: [.seconds(60), .seconds(120)]), scope: .default)
        webhook.render = { attempt in ([("X-Attempt", "\(attempt)")], Array("attempt \(attempt)".utf8)) }
        await dispatcher.deliver(webhook)
        clock.advance(by: 120)
        await scheduler.runDue()
        #expect(receiver.received.map(\.body) == ["attempt 1", "attempt 2", "attempt 3"])
        #expect(receiver.received.map(\.headers) == [["X-Attempt: 1"], ["X-Attempt: 2"], ["X-Attempt: 3"]])
        #expect(dispatcher.attempts().last?.delivered == true)
    }

    @Test("acknowledges narrows what counts as delivered: a 204 is retried when only 200 acknowledges")
    func acknowledgement() async throws {
        let clock = fixedClock()
        let scopes = MockClockScopes(defaultClock: clock)
        let scheduler = MockScheduler(scopes: scopes)
        let receiver = ScriptedWebhookReceiver([.reply(204, ""), .reply(200, "")])
        let dispatcher = WebhookDispatcher(transport: receiver, scheduler: scheduler, scopes: scopes)
        var webhook = Webhook(
            provider: "acme", url: "http://merchant.test/hook", headers: [], body: Array("{}".utf8),
            schedule: WebhookRetrySchedule(retriesAfter: [.seconds(60)]), scope: .default)
        webhook.acknowledges = { $0 == 200 }
        let first = await dispatcher.deliver(webhook)
        #expect(first.status == 204 && !first.delivered)
        #expect(first.nextAttemptAt == fixedBase.addingTimeInterval(60))
        clock.advance(by: 60)
        await scheduler.runDue()
        #expect(dispatcher.attempts().map(\.delivered) == [false, true])
        #expect(scheduler.pendingJobs.isEmpty)
    }
}
