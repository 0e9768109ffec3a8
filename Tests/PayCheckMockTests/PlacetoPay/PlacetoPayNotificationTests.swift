import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import PayCheckProviders
import Testing

@Suite("PlacetoPay mock: notifications and site control (providers.md §1.9)")
struct PlacetoPayNotificationTests {
    /// A site with a notification URL, and a signer for it.
    private func site(
        _ mock: PlacetoPayHarness,
        login: String = "notify-site",
        algorithm: String = "sha256"
    ) async throws -> PlacetoPaySigner {
        let response = try await mock.control(
            .post, "mock/site",
            [
                "login": login, "secretKey": "notify-secret", "notificationUrl": "http://merchant.example/hook",
                "notificationAlgorithm": algorithm,
            ])
        #expect(response.status == .ok)
        return PlacetoPaySigner(login: login, secret: "notify-secret")
    }

    @Test("an approved session notifies exactly once, with a signature that verifies")
    func notifiesOnce() async throws {
        let outbound = RecordingOutbound()
        try await withPlacetoPay(outbound: outbound) { mock in
            let signer = try await self.site(mock)
            let requestId = try await mock.create(signer: signer)
            _ = try await mock.pay(requestId, card: "4110760000000081")
            _ = try await mock.query(requestId, signer: signer)
            _ = try await mock.post(
                "api/transaction", ["internalReference": 100_001, "action": "reverse"], signer: signer)

            let posts = outbound.recorded
            #expect(posts.count == 1)
            let post = try #require(posts.first)
            #expect(post.url == "http://merchant.example/hook")
            #expect(post.headers == ["Content-Type: application/json"])
            let body = try #require(try JSONSerialization.jsonObject(with: Data(post.body.utf8)) as? [String: Any])
            #expect(body["requestId"] as? Int == requestId)
            #expect(body["reference"] as? String == "PAYCHECK-1")
            #expect(string(body, "status.status") == "APPROVED")
            let date = try #require(string(body, "status.date"))
            let signature = try #require(body["signature"] as? String)
            #expect(signature.hasPrefix("sha256:"))
            #expect(
                PlacetoPayNotificationSignature.verify(
                    signature, requestId: requestId, status: "APPROVED", date: date, secretKey: "notify-secret"))

            let log = try await mock.control(.post, "mock/notifications", ["requestId": requestId])
            #expect(log.object()["count"] as? Int == 1)
            #expect(value(log.object(), "notifications.0.responseStatus") as? Int == 204)
            #expect(value(log.object(), "notifications.0.error") is NSNull)
            #expect(string(log.object(), "notifications.0.body.signature") == signature)
        }
    }

    @Test("no notification URL: nothing is sent")
    func noURL() async throws {
        let outbound = RecordingOutbound()
        try await withPlacetoPay(outbound: outbound) { mock in
            let requestId = try await mock.create()
            _ = try await mock.pay(requestId, card: "4110760000000081")
            #expect(outbound.recorded.isEmpty)
            #expect(try await mock.control(.post, "mock/notifications", [:]).object()["count"] as? Int == 0)
        }
    }

    @Test("a failed delivery is recorded and not retried")
    func failureRecorded() async throws {
        let outbound = RecordingOutbound(status: nil)
        try await withPlacetoPay(outbound: outbound) { mock in
            let signer = try await self.site(mock)
            let requestId = try await mock.create(signer: signer)
            let cancel = try await mock.control(.post, "payer/cancel", ["requestId": requestId])
            #expect(cancel.status == .ok)
            _ = try await mock.query(requestId, signer: signer)
            #expect(outbound.recorded.count == 1)
            let log = try await mock.control(.post, "mock/notifications", ["requestId": requestId]).object()
            #expect(log["count"] as? Int == 1)
            #expect(value(log, "notifications.0.responseStatus") is NSNull)
            #expect(string(log, "notifications.0.error") == "connection refused by http://merchant.example/hook")
            #expect(string(log, "notifications.0.body.status.reason") == "?C")
        }
    }

    @Test("expiry discovered lazily notifies once; a legacy site gets a bare SHA-1 signature")
    func expiryNotifies() async throws {
        let outbound = RecordingOutbound()
        try await withPlacetoPay(outbound: outbound) { mock in
            let signer = try await self.site(mock, login: "legacy-site", algorithm: "sha1")
            let requestId = try await mock.create(signer: signer)
            mock.advance(31 * 60)
            let log = try await mock.control(.post, "mock/notifications", ["requestId": requestId]).object()
            #expect(log["count"] as? Int == 1)
            _ = try await mock.query(requestId, signer: signer)
            #expect(outbound.recorded.count == 1)
            let signature = try #require(string(log, "notifications.0.signature"))
            let date = try #require(string(log, "notifications.0.body.status.date"))
            #expect(date == "2026-01-15T05:30:00-05:00")
            #expect(
                PlacetoPayNotificationSignature.verify(
                    signature, requestId: requestId, status: "REJECTED", date: date, secretKey: "notify-secret",
                    algorithm: .sha1))
        }
    }

    @Test("control /notify re-sends a final session's notification to any URL; 400 while not final")
    func resend() async throws {
        let outbound = RecordingOutbound(status: 200)
        try await withPlacetoPay(outbound: outbound) { mock in
            let requestId = try await mock.create()
            let early = try await mock.control(
                .post, "mock/notify", ["requestId": requestId, "url": "http://127.0.0.1:9/hook"])
            #expect(early.status == .badRequest)
            #expect(
                early.errorMessage == "session 1 is not final (PENDING/PT); only final sessions are notified (§1.9)")
            _ = try await mock.pay(requestId, card: "4110760000000081")
            #expect(outbound.recorded.isEmpty)
            let response = try await mock.control(
                .post, "mock/notify", ["requestId": requestId, "url": "http://127.0.0.1:9/hook"])
            #expect(response.status == .ok)
            #expect(response.object()["responseStatus"] as? Int == 200)
            #expect(outbound.recorded.map(\.url) == ["http://127.0.0.1:9/hook"])
            #expect(try await mock.control(.post, "mock/notify", ["requestId": 9]).status == .notFound)
        }
    }

    @Test("mock: site and GET sites never echo the secret; bad members are 400")
    func siteControl() async throws {
        try await withPlacetoPay { mock in
            let created = try await mock.control(
                .post, "mock/site", ["login": "suite-site", "secretKey": "s3cret", "status": "inactive", "locale": "en_US"])
            #expect(created.status == .ok)
            #expect(!created.text.contains("s3cret"))
            #expect(created.object()["secretKey"] == nil)
            #expect(created.object()["status"] as? String == "inactive")
            #expect(created.object()["notificationUrl"] is NSNull)
            #expect(created.object()["notificationAlgorithm"] as? String == "sha1")
            let fetched = try await mock.control(.get, "sites/suite-site")
            #expect(fetched.text == created.text)
            #expect(try await mock.control(.get, "sites/paycheck-test").object()["acceptsSHA1"] as? Bool == true)

            let missingSecret = try await mock.control(.post, "mock/site", ["login": "new-site", "status": "active"])
            #expect(missingSecret.errorMessage == "'secretKey' is required to create site 'new-site'")
            let badStatus = try await mock.control(.post, "mock/site", ["login": "suite-site", "status": "paused"])
            #expect(
                badStatus.errorMessage
                    == "'status' must be one of active, inactive, expired, expiredCredentials, got 'paused'")
            let badURL = try await mock.control(.post, "mock/site", ["login": "suite-site", "notificationUrl": "ftp://x"])
            #expect(badURL.status == .badRequest)
            let unknown = try await mock.control(.post, "mock/site", ["login": "suite-site", "secret": "x"])
            #expect(unknown.errorMessage?.hasPrefix("unknown member 'secret'") == true)
            #expect(try await mock.control(.get, "sites/nobody").status == .notFound)

            let inactive = PlacetoPaySigner(login: "suite-site", secret: "s3cret")
            #expect(
                try await mock.post("api/session", PlacetoPayHarness.sessionBody(), signer: inactive).status
                    == .unauthorized)
        }
    }
}
