import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import PayCheckProviders
import Testing

@Suite("PlacetoPay mock: authentication (providers.md §1.2, §1.3)")
struct PlacetoPayAuthTests {
    /// Expects the documented 401 envelope with auth `code`.
    private func expectAuthFailure(
        _ response: TestResponse,
        code: Int,
        spanish: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == .unauthorized, sourceLocation: sourceLocation)
        let body = response.object(sourceLocation: sourceLocation)
        #expect(string(body, "status.status") == "FAILED", sourceLocation: sourceLocation)
        #expect(value(body, "status.reason") as? Int == 401, sourceLocation: sourceLocation)
        let message = spanish ? "Autenticación fallida \(code)" : "Authentication failed \(code)"
        #expect(string(body, "status.message") == message, sourceLocation: sourceLocation)
        #expect(string(body, "status.date") == "2026-01-15T05:00:00-05:00", sourceLocation: sourceLocation)
    }

    @Test("a correctly signed request passes")
    func signedRequestPasses() async throws {
        try await withPlacetoPay { mock in
            let response = try await mock.post("api/session", PlacetoPayHarness.sessionBody())
            #expect(response.status == .ok)
        }
    }

    @Test("100: missing auth object, malformed nonce, missing field, non-JSON content type or body")
    func malformed() async throws {
        try await withPlacetoPay { mock in
            self.expectAuthFailure(try await mock.raw("api/session", json: PlacetoPayHarness.sessionBody()), code: 100)

            var auth = mock.signer.auth()
            auth["nonce"] = "not base64!"
            var body = PlacetoPayHarness.sessionBody()
            body["auth"] = auth
            self.expectAuthFailure(try await mock.raw("api/session", json: body), code: 100)

            auth = mock.signer.auth()
            auth["seed"] = nil
            body["auth"] = auth
            self.expectAuthFailure(try await mock.raw("api/session", json: body), code: 100)

            body["auth"] = mock.signer.auth()
            self.expectAuthFailure(try await mock.raw("api/session", json: body, contentType: "text/plain"), code: 100)

            let notJSON = try await mock.client.send(
                .post, "/placetopay/api/session", body: "auth=1", headers: [.contentType: "application/json"])
            self.expectAuthFailure(notJSON, code: 100)
        }
    }

    @Test("101: unknown login")
    func unknownLogin() async throws {
        try await withPlacetoPay { mock in
            let signer = PlacetoPaySigner(login: "nobody", secret: "x")
            self.expectAuthFailure(
                try await mock.post("api/session", PlacetoPayHarness.sessionBody(), signer: signer), code: 101)
        }
    }

    @Test("102: wrong secret, and a replayed nonce")
    func wrongSecretAndReplay() async throws {
        try await withPlacetoPay { mock in
            let wrong = PlacetoPaySigner(secret: "not-the-secret")
            self.expectAuthFailure(
                try await mock.post("api/session", PlacetoPayHarness.sessionBody(), signer: wrong), code: 102)

            var body = PlacetoPayHarness.sessionBody()
            body["auth"] = mock.signer.auth(nonce: "replayed-nonce")
            #expect(try await mock.raw("api/session", json: body).status == .ok)
            self.expectAuthFailure(try await mock.raw("api/session", json: body), code: 102)
        }
    }

    @Test("103: seed 6 minutes old or ahead fails; exactly 5 minutes passes", arguments: [-360.0, 360.0])
    func seedWindow(offset: Double) async throws {
        try await withPlacetoPay { mock in
            let stale = PlacetoPaySigner(seedDate: fixedBase.addingTimeInterval(offset))
            self.expectAuthFailure(
                try await mock.post("api/session", PlacetoPayHarness.sessionBody(), signer: stale), code: 103)
            let edge = PlacetoPaySigner(seedDate: fixedBase.addingTimeInterval(offset > 0 ? 300 : -300))
            #expect(try await mock.post("api/session", PlacetoPayHarness.sessionBody(), signer: edge).status == .ok)
        }
    }

    @Test("the seed window uses the wall clock, not the shifted mock clock")
    func seedUsesWallClock() async throws {
        try await withPlacetoPay { mock in
            mock.advance(3600)
            let response = try await mock.post("api/session", PlacetoPayHarness.sessionBody())
            #expect(response.status == .ok)
        }
    }

    @Test("104, 105, 106: the preconfigured inactive and expired sites")
    func siteStates() async throws {
        try await withPlacetoPay { mock in
            let cases = [
                ("paycheck-inactive", "paycheck-inactive-secret", 104),
                ("paycheck-expired", "paycheck-expired-secret", 105),
                ("paycheck-expired-credentials", "paycheck-expired-credentials-secret", 106),
            ]
            for (login, secret, code) in cases {
                let signer = PlacetoPaySigner(login: login, secret: secret)
                self.expectAuthFailure(
                    try await mock.post("api/session", PlacetoPayHarness.sessionBody(), signer: signer), code: code)
            }
        }
    }

    @Test("the message is Spanish when the request locale is es_CO")
    func spanishMessage() async throws {
        try await withPlacetoPay { mock in
            let wrong = PlacetoPaySigner(secret: "nope")
            let body = PlacetoPayHarness.sessionBody(["locale": "es_CO"])
            self.expectAuthFailure(try await mock.post("api/session", body, signer: wrong), code: 102, spanish: true)
        }
    }

    @Test("SHA-1 tranKeys pass by default and fail for a site that refuses them; raw-byte nonces are hashed as bytes")
    func sha1AndRawNonce() async throws {
        try await withPlacetoPay { mock in
            let sha1 = PlacetoPaySigner(algorithm: .sha1)
            #expect(try await mock.post("api/session", PlacetoPayHarness.sessionBody(), signer: sha1).status == .ok)
            let put = try await mock.control(.post, "mock/site", ["login": "paycheck-test", "acceptsSHA1": false])
            #expect(put.status == .ok)
            self.expectAuthFailure(
                try await mock.post("api/session", PlacetoPayHarness.sessionBody(), signer: sha1), code: 102)
            _ = try await mock.control(.post, "mock/site", ["login": "paycheck-test", "acceptsSHA1": true])

            // checkout-p2p sends 16 random bytes (not UTF-8) and a microsecond UTC seed.
            let seed = "2026-01-15T10:00:00.126265+00:00"
            let raw: [UInt8] = [0xff, 0x00, 0xfe, 0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
            var body = PlacetoPayHarness.sessionBody()
            body["auth"] = PlacetoPayAuth.make(
                login: "paycheck-test", secretKey: "paycheck-test-secret-key", rawNonce: raw, seed: seed
            ).json()
            #expect(try await mock.raw("api/session", json: body).status == .ok)
        }
    }
}
