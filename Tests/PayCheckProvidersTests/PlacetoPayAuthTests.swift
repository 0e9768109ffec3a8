import Foundation
import PayCheckProviders
import Testing

/// Client-side `auth` construction: tranKey vectors, nonce and seed helpers.
@Suite("PlacetoPay auth")
struct PlacetoPayAuthTests {
    @Test("tranKey matches the providers.md §1.2 SHA-256 vector")
    func sha256Vector() {
        let auth = PlacetoPayAuth.make(
            login: "site-login", secretKey: "s3cr3t-KEY", rawNonce: "paycheck-nonce-1",
            seed: "2026-01-15T10:00:00-05:00")
        #expect(auth.tranKey == "yXvPG2c1cY7/toXlfaeiB7C9yI9Ce6lubRNUAiPv3Jk=")
        #expect(auth.nonce == "cGF5Y2hlY2stbm9uY2UtMQ==")
        #expect(auth.seed == "2026-01-15T10:00:00-05:00")
        #expect(auth.login == "site-login")
    }

    @Test("tranKey matches the dnetix/redirection SDK's own SHA-1 vector")
    func sha1SDKVector() {
        // tests/Functionality/AuthenticationTest.php: testItOverridesTheAuthenticationSeedAndNonce.
        let auth = PlacetoPayAuth.make(
            login: "login", secretKey: "ABCD1234", rawNonce: "ifYEPnAcJbpDVR1t",
            seed: "2016-10-26T21:37:00+00:00", algorithm: .sha1)
        #expect(auth.nonce == "aWZZRVBuQWNKYnBEVlIxdA==")
        #expect(auth.tranKey == "Xi5xrRwrqPU21WE2JI4hyMaCvQ8=")
    }

    @Test("SHA-1 and SHA-256 tranKeys differ for the same inputs")
    func algorithmMatters() {
        let sha1 = PlacetoPayAuth.tranKey(
            rawNonce: Array("paycheck-nonce-1".utf8), seed: "2026-01-15T10:00:00-05:00", secretKey: "s3cr3t-KEY",
            algorithm: .sha1)
        #expect(sha1 == "4GHnNihK7tfrnRObDGB30j2X1Mo=")
    }

    @Test("byte and text raw nonces give the same auth")
    func byteAndTextNonceAgree() {
        let text = PlacetoPayAuth.make(login: "l", secretKey: "k", rawNonce: "abc", seed: "s")
        let bytes = PlacetoPayAuth.make(login: "l", secretKey: "k", rawNonce: [0x61, 0x62, 0x63], seed: "s")
        #expect(text == bytes)
    }

    @Test("binary raw nonces (as checkout-p2p sends) are Base64-encoded as bytes")
    func binaryNonce() {
        let raw: [UInt8] = [0x00, 0xFF, 0x10, 0x80]
        let auth = PlacetoPayAuth.make(login: "l", secretKey: "k", rawNonce: raw, seed: "s")
        #expect(auth.nonce == "AP8QgA==")
    }

    @Test("rawNonce(from:) hex-encodes like PHP bin2hex")
    func rawNonceHex() {
        let bytes: [UInt8] = Array(0..<16).map { UInt8($0 * 17) }
        let nonce = PlacetoPayAuth.rawNonce(from: bytes)
        #expect(nonce == "00112233445566778899aabbccddeeff")
        #expect(nonce.count == 32)
    }

    @Test("json() exposes the four wire fields")
    func jsonFields() {
        let auth = PlacetoPayAuth(login: "a", tranKey: "b", nonce: "c", seed: "d")
        #expect(auth.json() == ["login": "a", "tranKey": "b", "nonce": "c", "seed": "d"])
    }

    @Test("Codable uses the wire field names")
    func codableKeys() throws {
        let auth = PlacetoPayAuth(login: "a", tranKey: "b", nonce: "c", seed: "d")
        let data = try JSONEncoder().encode(auth)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == auth.json())
    }
}
