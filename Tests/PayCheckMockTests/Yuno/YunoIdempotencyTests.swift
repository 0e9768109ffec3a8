import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckProviders
import Testing

@testable import PayCheckMock

/// `X-Idempotency-Key` on `POST /payments` (providers.md §3.2, §3.13 P2-21).
@Suite("Yuno mock idempotency")
struct YunoIdempotencyTests {
    static let credentials = YunoProvider().mockCredentials
    static var headers: HTTPFields {
        var fields = HTTPFields()
        fields[HTTPFields.Element.Name("public-api-key")!] = credentials["publicApiKey"]
        fields[HTTPFields.Element.Name("private-secret-key")!] = credentials["privateSecretKey"]
        fields[.contentType] = "application/json"
        return fields
    }

    static func string(_ response: TestResponse, _ key: String) -> String? { response.object()[key] as? String }

    /// A session and a one-time token for the approved test card.
    static func prepare(_ client: any TestClientProtocol) async throws -> (session: String, token: String) {
        let account = credentials["accountId"] ?? ""
        let session = try await client.send(
            .post, "/yuno/v1/checkout/sessions",
            body: #"{"account_id":"\#(account)","merchant_order_id":"ORD-1","payment_description":"Idempotent","country":"CO"}"#,
            headers: headers)
        let id = try #require(string(session, "checkout_session"))
        let token = try await client.send(
            .post, "/yuno/v1/checkout/sessions/\(id)/token",
            body: #"{"payment_method":{"type":"CARD","card":{"number":"4507990000000002","expiration_month":11,"expiration_year":28,"security_code":"123"}}}"#,
            headers: headers)
        return (id, try #require(string(token, "token")))
    }

    static func payment(session: String, token: String, description: String = "Idempotent") -> String {
        let account = credentials["accountId"] ?? ""
        return
            #"{"account_id":"\#(account)","description":"\#(description)","country":"CO","merchant_order_id":"ORD-1","amount":{"currency":"COP","value":1000},"checkout":{"session":"\#(session)"},"payment_method":{"token":"\#(token)"}}"#
    }

    @Test("concurrent requests with one key create exactly one payment; the others replay it or are REQUEST_IN_PROCESS")
    func concurrent() async throws {
        let mock = YunoMock()
        try await withRouter(makeHost([mock])) { client in
            let (session, token) = try await Self.prepare(client)
            var headers = Self.headers
            headers[HTTPFields.Element.Name("X-Idempotency-Key")!] = "wc-42-0123456789ab"
            let body = Self.payment(session: session, token: token)
            let keyed = headers
            let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        let response = try await client.send(.post, "/yuno/v1/payments", body: body, headers: keyed)
                        return (response.status.code, response.text)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(mock.store.withState { $0.payments.count } == 1)
            let created = answers.filter { $0.0 == 201 }
            #expect(!created.isEmpty)
            #expect(Set(created.map(\.1)).count == 1, "every 201 is the original payment")
            for answer in answers where answer.0 != 201 {
                #expect(answer.0 == 400 && answer.1.contains("REQUEST_IN_PROCESS"), "\(answer)")
            }
        }
    }

    @Test("a replay with another body answers the original; a key burnt by a failed request is IDEMPOTENCY_DUPLICATED; a malformed request does not take the key")
    func rules() async throws {
        let mock = YunoMock()
        try await withRouter(makeHost([mock])) { client in
            let (session, token) = try await Self.prepare(client)
            var headers = Self.headers
            headers[HTTPFields.Element.Name("X-Idempotency-Key")!] = "key-1"
            let first = try await client.send(.post, "/yuno/v1/payments", body: Self.payment(session: session, token: token), headers: headers)
            #expect(first.status.code == 201)
            let again = try await client.send(
                .post, "/yuno/v1/payments", body: Self.payment(session: session, token: token, description: "Other body"), headers: headers)
            #expect(again.status.code == 201)
            #expect(Self.string(again, "id") == Self.string(first, "id"))

            headers[HTTPFields.Element.Name("X-Idempotency-Key")!] = "key-2"
            let malformed = try await client.send(.post, "/yuno/v1/payments", body: #"{"description":"x"}"#, headers: headers)
            #expect(malformed.status.code == 400 && Self.string(malformed, "code") == "INVALID_REQUEST")
            let reused = try await client.send(.post, "/yuno/v1/payments", body: Self.payment(session: session, token: token), headers: headers)
            #expect(Self.string(reused, "code") == "INVALID_TOKEN", "the malformed request did not consume key-2")
            let burnt = try await client.send(.post, "/yuno/v1/payments", body: Self.payment(session: session, token: token), headers: headers)
            #expect(burnt.status.code == 400 && Self.string(burnt, "code") == "IDEMPOTENCY_DUPLICATED")
            #expect(mock.store.withState { $0.payments.count } == 1)
        }
    }
}
