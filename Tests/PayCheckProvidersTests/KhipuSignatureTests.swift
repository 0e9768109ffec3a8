import Foundation
import PayCheckCore
import PayCheckProviders
import Testing

/// The khipu signing vectors of `Fixtures/khipu.json` (providers.md §2.2, §2.7, §2.12 B1).
@Suite("khipu signatures")
struct KhipuSignatureTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name, method, url, secret, toSign, hash: String
        var parameters: [(name: String, value: String)]
        var testDescription: String { name }
    }

    static func vectors() throws -> [Vector] {
        let file = try #require(Bundle.module.url(forResource: "khipu", withExtension: "json", subdirectory: "Fixtures"))
        let root = try #require(JSONText.parse(try String(contentsOf: file, encoding: .utf8)))
        return try #require(root["v2_signing"]?.arrayValue).map { item in
            Vector(
                name: item["name"]?.stringValue ?? "", method: item["method"]?.stringValue ?? "", url: item["url"]?.stringValue ?? "",
                secret: item["secret"]?.stringValue ?? "", toSign: item["to_sign"]?.stringValue ?? "", hash: item["hash"]?.stringValue ?? "",
                parameters: (item["params"]?.objectValue ?? [:]).map { ($0.key, $0.value.stringValue ?? "") })
        }
    }

    @Test("the API 2.0 string to sign and hash match every vector")
    func v2Vectors() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 5)
        for vector in vectors {
            let toSign = KhipuSignature.stringToSign(method: vector.method, url: vector.url, parameters: vector.parameters)
            #expect(toSign == vector.toSign, "\(vector.name)")
            #expect(KhipuSignature.hash(toSign, secret: vector.secret) == vector.hash, "\(vector.name)")
        }
    }

    @Test("the notification 3.0 signature matches §2.7's vector, and a tampered body or other key fails")
    func notificationVector() {
        let body = Array(#"{"payment_id":"gqzdy6chjne9","status":"done"}"#.utf8)
        #expect(KhipuSignature.notification(t: "1711965600393", body: body, secret: "secret-key") == "CqHkYHUFrgZJSSuQgdaBhn9okNcTp2hoMjimJ2eR8qE=")
        let header = KhipuSignature.notificationHeader(t: "1711965600393", body: body, secret: "secret-key")
        #expect(KhipuSignature.verifyNotification(header: header, body: body, secret: "secret-key"))
        #expect(!KhipuSignature.verifyNotification(header: header, body: Array(#"{"payment_id":"gqzdy6chjne9","status":"pending"}"#.utf8), secret: "secret-key"))
        #expect(!KhipuSignature.verifyNotification(header: header, body: body, secret: "other"))
        #expect(!KhipuSignature.verifyNotification(header: "garbage", body: body, secret: "secret-key"))
    }
}

/// Place → encode → sign: khipu 2.0's HMAC is computed over the request as it goes on the wire.
@Suite("khipu 2.0 signs the request as sent")
struct KhipuSignedAsSentTests {
    @Test("the Authorization hash is the one of the method, the URL and the parameters the sent query and body bytes carry; a tamper changes the bytes after signing")
    func signedAsSent() async throws {
        let recording = RecordingContext(status: 200, json: #"{"payment_id":"p1","payment_url":"https://khipu.test/p1"}"#)
        let credentials = ["receiverId": "1234", "secret": "khipu-test-secret", "apiKey": "k"]
        let executor = ProviderExecutor(provider: KhipuProvider())
        let parameters: Value = ["subject": "Café & té", "currency": "CLP", "amount": 1000, "notify_url": "https://shop.test/n?a=1&b=2"]
        _ = try await executor.perform(
            ProviderActionRequest(kind: .call, name: "createPaymentV2", parameters: parameters, auth: nil),
            context: recording.context(credentials: credentials))
        let sent = try #require(recording.requests.last)
        let text = String(decoding: sent.body, as: UTF8.self)
        let base = sent.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? sent.url
        let expected = KhipuSignature.hash(
            KhipuSignature.stringToSign(method: sent.method, url: base, parameters: FormText.decodePairs(text)), secret: "khipu-test-secret")
        #expect(sent.headers.first { $0.name == "Authorization" }?.value == "1234:\(expected)")
        #expect(recording.secrets.contains(expected))

        _ = try await executor.perform(
            ProviderActionRequest(kind: .call, name: "createPaymentV2", parameters: parameters, auth: ["tamper": ["amount": 1]]),
            context: recording.context(credentials: credentials))
        let tampered = try #require(recording.requests.last)
        #expect(FormText.decodePairs(String(decoding: tampered.body, as: UTF8.self)).first { $0.name == "amount" }?.value == "1")
        #expect(tampered.headers.first { $0.name == "Authorization" }?.value == "1234:\(expected)", "signed before the tamper")
    }
}
