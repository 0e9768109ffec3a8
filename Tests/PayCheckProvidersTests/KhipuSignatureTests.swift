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
