import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckCore
import PayCheckProviders
import Testing

@testable import PayCheckMock

/// Yuno webhooks (providers.md §3.8, §3.13 P1-13/P1-14) through the shared dispatcher.
@Suite("Yuno mock webhooks")
struct YunoWebhookTests {
    @Test("x-hmac-signature is Base64(HMAC-SHA256(secret, raw body)): §3.8's vector, hex and sha256= accepted, tampering refused")
    func signatureVector() {
        let body = Array(#"{"type":"payment","type_event":"payment.purchase"}"#.utf8)
        let signature = YunoWebhookSignature.sign(body: body, secret: "my-webhook-secret")
        #expect(signature == "7kC+tbXu/iDvGBKmtbsnpJYF2ls4+dhGaRdqyiv7DDE=")
        #expect(YunoWebhookSignature.verify(signature: signature, body: body, secret: "my-webhook-secret"))
        let hex = Data(base64Encoded: signature)!.map { String(format: "%02x", $0) }.joined()
        #expect(YunoWebhookSignature.verify(signature: "sha256=" + hex, body: body, secret: "my-webhook-secret"))
        #expect(!YunoWebhookSignature.verify(signature: signature, body: body + [0x20], secret: "my-webhook-secret"))
        #expect(!YunoWebhookSignature.verify(signature: signature, body: body, secret: "another-secret"))
        #expect(!YunoWebhookSignature.verify(signature: "not base64!", body: body, secret: "my-webhook-secret"))
    }

    @Test("a failing receiver gets 7 attempts at +5m, +50m, +6h, +24h, +48h, +96h; each body carries its retry counter, is signed anew, and keeps the idempotency key")
    func retries() async throws {
        let receiver = ScriptedWebhookReceiver([.reply(500, "down")])
        let mock = YunoMock()
        let host = MockHost(providers: [mock], clock: fixedClock(), webhookTransport: receiver)
        try await withRouter(host) { client in
            let headers = YunoIdempotencyTests.headers
            let account = YunoIdempotencyTests.credentials["accountId"] ?? ""
            let hook = try await client.send(
                .post, "/yuno/v1/webhooks",
                body:
                    #"{"account_id":"\#(account)","name":"shop","url":"http://merchant.test/yuno","api_key":"k1","secret":"s1","hmac_client_secret":"my-webhook-secret","payment_triggers":["PURCHASE"]}"#,
                headers: headers)
            #expect(hook.status.code == 201)
            let (session, token) = try await YunoIdempotencyTests.prepare(client)
            var keyed = headers
            keyed[HTTPFields.Element.Name("X-Idempotency-Key")!] = "order-7"
            let payment = try await client.send(.post, "/yuno/v1/payments", body: YunoIdempotencyTests.payment(session: session, token: token), headers: keyed)
            #expect(payment.status.code == 201)
            #expect(receiver.received.count == 1)
            for (advance, count) in [("299s", 1), ("1s", 2), ("45m", 3), ("6h", 4), ("1d", 5), ("2d", 6), ("4d", 7), ("30d", 7)] {
                _ = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"\#(advance)"}"#)
                #expect(receiver.received.count == count, "after \(advance)")
            }
            for (index, sent) in receiver.received.enumerated() {
                let body = try #require(JSONText.parse(Array(sent.body.utf8)))
                #expect(body["retry"] == .int(index))
                #expect(body["version"] == .int(2))
                #expect(body["type_event"] == "payment.purchase")
                #expect(body["data"]?["idempotency_key"] == "order-7")
                #expect(body["data"]?["payment"]?["idempotency_key"] == "order-7")
                #expect(sent.headers.contains("x-api-key: k1") && sent.headers.contains("x-secret: s1"))
                let signature = try #require(sent.headers.first { $0.hasPrefix("x-hmac-signature: ") }).dropFirst("x-hmac-signature: ".count)
                #expect(YunoWebhookSignature.verify(signature: String(signature), body: Array(sent.body.utf8), secret: "my-webhook-secret"))
            }
            #expect(Set(receiver.received.map(\.body)).count == 7, "every attempt is rendered with its own retry counter")
        }
    }
}
