import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckCore
import PayCheckMock
import Synchronization
import Testing

@Suite("Safe by default: the control API refuses cross-origin and rebinding requests; notifications stay on loopback")
struct NetworkPolicyTests {
    @Test("a cross-origin text/plain POST and a form POST to the control API are refused; JSON is accepted")
    func crossOriginPostRefused() async throws {
        let host = makeHost()
        try await withRouter(host) { client in
            for contentType in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let response = try await client.send(
                    .post, "/__paycheck/clock", body: #"{"advance":"1d"}"#,
                    headers: [.contentType: contentType, .origin: "https://evil.example"])
                #expect(response.status == .forbidden)
                #expect(response.text.contains("Content-Type: application/json"))
            }
            let accepted = try await client.send(.post, "/__paycheck/clock", body: #"{"advance":"1m"}"#)
            #expect(accepted.status == .ok)
        }
        // Only the JSON request moved the clock.
        #expect(host.clock.now() == fixedBase.addingTimeInterval(60))
    }

    @Test("a foreign Host (DNS rebinding) is refused by the control API; loopback names are accepted")
    func foreignHostRefused() async throws {
        let host = makeHost()
        try await withRouter(host) { client in
            let rebound = try await client.send(.post, "/__paycheck/reset", body: "{}", headers: [hostHeader: "attacker.example:8080"])
            #expect(rebound.status == .forbidden)
            #expect(rebound.text.contains("Host 'attacker.example:8080'"))
            let journal = try await client.send(.get, "/__paycheck/journal", headers: [hostHeader: "attacker.example"])
            #expect(journal.status == .forbidden)
            for name in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "localhost"] {
                let response = try await client.send(.get, "/__paycheck/health", headers: [hostHeader: name])
                #expect(response.status == .ok, "Host \(name)")
            }
        }
    }

    @Test("a configured Host name is accepted; with a control token, requests without it are refused")
    func tokenAndAllowedHost() async throws {
        let host = MockHost(
            providers: [], clock: fixedClock(), policy: NetworkPolicy(controlToken: "t0ken", allowedHostNames: ["Mock.Internal"]))
        try await withRouter(host) { client in
            let missing = try await client.send(.get, "/__paycheck/health", headers: [hostHeader: "mock.internal:8080"])
            #expect(missing.status == .forbidden)
            #expect(missing.text.contains(ControlAPI.controlTokenHeader))
            let tokenHeader = HTTPFields.Element.Name(ControlAPI.controlTokenHeader)!
            let wrong = try await client.send(.get, "/__paycheck/health", headers: [hostHeader: "mock.internal:8080", tokenHeader: "nope"])
            #expect(wrong.status == .forbidden)
            let right = try await client.send(.get, "/__paycheck/health", headers: [hostHeader: "mock.internal:8080", tokenHeader: "t0ken"])
            #expect(right.status == .ok)
        }
    }

    @Test("a notification URL to a non-loopback host is refused by default, and sent when the host is allowed")
    func notificationHosts() async throws {
        let recorder = URLRecorder()
        let policed = MockHost(providers: [], clock: fixedClock(), outbound: recorder)
        let transport = OutboundWebhookTransport(outbound: policed.outbound)
        await #expect(throws: OutboundHTTPError.self) {
            _ = try await transport.send(url: "http://192.168.1.20:22/probe", headers: [], body: [])
        }
        #expect(recorder.urls.isEmpty)
        _ = try await transport.send(url: "http://127.0.0.1:9/notify", headers: [], body: [])
        #expect(recorder.urls == ["http://127.0.0.1:9/notify"])

        let allowed = MockHost(
            providers: [], clock: fixedClock(), outbound: recorder, policy: NetworkPolicy(notifyHosts: ["hooks.merchant.example"]))
        _ = try await OutboundWebhookTransport(outbound: allowed.outbound)
            .send(url: "https://hooks.merchant.example/paycheck", headers: [], body: [])
        #expect(recorder.urls.last == "https://hooks.merchant.example/paycheck")
        #expect(NetworkPolicy().outboundProblem(url: "http://[::1]:8080/x") == nil)
        #expect(NetworkPolicy().outboundProblem(url: "http://user@10.0.0.1/x")?.contains("'10.0.0.1'") == true)
    }

    @Test("the journal keeps no secret field a provider declares: header, JSON member or form parameter")
    func journalMasksSecrets() async throws {
        let host = MockHost(providers: MockRegistry.builtIn, clock: fixedClock())
        let sentinel = "SENTINEL-3f9a1c"
        try await withRouter(host) { client in
            _ = try await client.send(
                .post, "/placetopay/api/session",
                body: #"{"auth":{"login":"x","tranKey":"\#(sentinel)","nonce":"bm9uY2U=","seed":"2026-01-15T10:00:00Z"}}"#,
                headers: [.contentType: "application/json"])
            _ = try await client.send(.get, "/mollie/v2/payments", headers: [.authorization: "Bearer test_\(sentinel)"])
            _ = try await client.send(
                .post, "/khipu/api/2.0/payments", body: "subject=x&secret=\(sentinel)&amount=1",
                headers: [.contentType: "application/x-www-form-urlencoded"])
            let journal = try await client.send(.get, "/__paycheck/journal")
            #expect(journal.status == .ok)
            #expect(!journal.text.contains(sentinel))
            #expect(journal.text.contains("[redacted]"))
            #expect(journal.text.contains("bm9uY2U="))  // a nonce is not a secret
        }
    }

    @Test("loopback and wildcard addresses are recognised")
    func addresses() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]", "app.localhost"] {
            #expect(NetworkPolicy.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "192.168.0.1", "::", "example.com", "127.0.0.1.nip.io", "1270.0.0.1"] {
            #expect(!NetworkPolicy.isLoopback(host), "\(host)")
        }
        #expect(NetworkPolicy.isWildcard("0.0.0.0") && NetworkPolicy.isWildcard("::"))
    }
}

/// The `Host` header (HTTPTypes keeps it as the request's authority on the wire).
private let hostHeader = HTTPFields.Element.Name("Host")!

/// Records the URLs it is asked to send to, and answers 200.
private final class URLRecorder: OutboundHTTP {
    private let sent = Mutex<[String]>([])
    var urls: [String] { self.sent.withLock { $0 } }

    func post(url: String, headers: [(String, String)], body: [UInt8]) async throws -> Int {
        self.sent.withLock { $0.append(url) }
        return 200
    }
}
