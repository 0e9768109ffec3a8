import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PayCheckMock
import Testing

@Suite("Provider mocks hosted by MockHost")
struct ProviderMockTests {
    @Test("a 404 for a path whose version segment is doubled says the base URL already ended in it")
    func doubledVersionSegment() {
        #expect(YunoMock.doubledSegmentHint("/yuno/v1/v1/payments").contains("already ends in '/v1'"))
        #expect(YunoMock.doubledSegmentHint("/mollie/v2/v2/payments").contains("'/v2'"))
        #expect(YunoMock.doubledSegmentHint("/yuno/v1/payments").isEmpty)
        #expect(YunoMock.doubledSegmentHint("/khipu/v3/payments/v3").isEmpty)
    }

    @Test("provider routes are served under their id and journaled")
    func servedAndJournaled() async throws {
        let provider = FakeProvider(id: "fakepay")
        let host = makeHost([provider])
        try await withRouter(host) { client in
            let first = try await client.send(.post, "/fakepay/api/session", body: "{}")
            #expect(first.status == .created)
            #expect(first.object()["requestId"] as? Int == 1)
            let second = try await client.send(.post, "/fakepay/api/session", body: "{}")
            #expect(second.object()["requestId"] as? Int == 2)

            let control = try await client.send(.get, "/__paycheck/fakepay/sessions")
            #expect(control.object()["count"] as? Int == 2)
        }
        #expect(host.journal.entries(pathPrefix: "/fakepay").count == 2)
        #expect(host.journal.entries().count == 2)
    }

    @Test("providers see mock time and the host base URL")
    func environment() async throws {
        let host = makeHost([FakeProvider(id: "fakepay")])
        host.clock.advance(by: 60)
        try await withRouter(host) { client in
            let body = try await client.send(.get, "/fakepay/api/time").object()
            #expect(body["epoch"] as? Int == Int(fixedBase.timeIntervalSince1970) + 60)
            #expect(body["baseURL"] as? String == "http://localhost")
        }
    }

    @Test("reset is propagated to every provider")
    func resetPropagates() async throws {
        let first = FakeProvider(id: "one")
        let second = FakeProvider(id: "two")
        try await withRouter(makeHost([first, second])) { client in
            _ = try await client.send(.post, "/one/api/session")
            #expect(first.sessionCount == 1)
            #expect(try await client.send(.post, "/__paycheck/reset").status == .ok)
        }
        #expect(first.sessionCount == 0)
        #expect(first.resetCount == 1)
        #expect(second.resetCount == 1)
    }

    @Test("an unexpected error in a provider route becomes a JSON 500")
    func providerErrorBecomesJSON() async throws {
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let host = MockHost(providers: [FakeProvider(id: "fakepay")], clock: fixedClock(), logger: quiet)
        try await withRouter(host) { client in
            let response = try await client.send(.get, "/fakepay/api/fail")
            #expect(response.status == .internalServerError)
            #expect(response.isJSON)
            #expect(response.errorMessage == "internal mock error in 'GET /fakepay/api/fail': fake failure")
        }
    }

    @Test("a wrong method on a provider path no declared operation has is the provider's 404 (by default the host's JSON shape)")
    func wrongMethod() async throws {
        try await withRouter(makeHost([FakeProvider(id: "fakepay")])) { client in
            let response = try await client.send(.get, "/fakepay/api/session")
            #expect(response.status == .notFound)
            #expect(response.errorMessage == "No resource at GET /fakepay/api/session")
        }
    }
}
