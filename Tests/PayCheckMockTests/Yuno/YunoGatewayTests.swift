import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckProviders
import Testing

@testable import PayCheckMock

/// `mock: gateway` settings last until the clock is reset (the runner resets it after the case that made them).
@Suite("Yuno mock gateway settings")
struct YunoGatewayTests {
    @Test("a gateway latency holds a payment in CREATED/CREATED until the clock passes it, and a clock reset drops the setting")
    func latencyUntilReset() async throws {
        let mock = YunoMock()
        try await withRouter(makeHost([mock])) { client in
            let set = try await client.send(.post, "/__paycheck/yuno/mock/gateway", body: #"{"latency":"30s"}"#)
            #expect(set.status == .ok)
            var headers = YunoIdempotencyTests.headers
            headers[HTTPFields.Element.Name("X-Idempotency-Key")!] = "late-1"
            let (session, token) = try await YunoIdempotencyTests.prepare(client)
            let late = try await client.send(.post, "/yuno/v1/payments", body: YunoIdempotencyTests.payment(session: session, token: token), headers: headers)
            #expect(YunoIdempotencyTests.string(late, "status") == "CREATED")
            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"30s"}"#)
            let id = try #require(YunoIdempotencyTests.string(late, "id"))
            #expect(mock.store.withState { $0.payments[id]?.key } == "SUCCEEDED/APPROVED")

            _ = try await client.send(.post, "/__paycheck/clock", body: #"{"reset":true}"#)
            headers[HTTPFields.Element.Name("X-Idempotency-Key")!] = "late-2"
            let (session2, token2) = try await YunoIdempotencyTests.prepare(client)
            let prompt = try await client.send(.post, "/yuno/v1/payments", body: YunoIdempotencyTests.payment(session: session2, token: token2), headers: headers)
            #expect(YunoIdempotencyTests.string(prompt, "status") == "SUCCEEDED", "the latency was dropped with the clock reset")
        }
    }
}
