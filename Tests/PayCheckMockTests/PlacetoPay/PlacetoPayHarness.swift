import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import PayCheckProviders
import Synchronization
import Testing

/// The zone of seeds in tests, as in the docs' examples.
let bogota = TimeZone(secondsFromGMT: -5 * 3600) ?? .gmt

/// Signs PlacetoPay `auth` objects for tests; every call gets a fresh nonce unless one is given.
struct PlacetoPaySigner: Sendable {
    /// The site login.
    var login = "paycheck-test"
    /// The secret used to sign (may differ from the site's, for 102 tests).
    var secret = "paycheck-test-secret-key"
    /// The time the seed states.
    var seedDate = fixedBase
    /// The tranKey digest.
    var algorithm: PlacetoPayHashAlgorithm = .sha256

    /// A signed `auth` object with `nonce` (default: a fresh UUID) as raw nonce.
    func auth(nonce: String = UUID().uuidString) -> [String: String] {
        PlacetoPayAuth.make(
            login: self.login, secretKey: self.secret, rawNonce: nonce,
            seed: PlacetoPayAuth.seed(for: self.seedDate, timeZone: bogota), algorithm: self.algorithm
        ).json()
    }
}

/// A fake ``OutboundHTTP`` that records every POST and answers with a fixed status or error.
final class RecordingOutbound: OutboundHTTP {
    /// One recorded POST.
    struct Post: Sendable {
        /// The target URL.
        var url: String
        /// The headers sent.
        var headers: [String]
        /// The body as text.
        var body: String
    }

    /// Recorded posts.
    private let posts = Mutex<[Post]>([])
    /// The status to answer; `nil` throws instead.
    private let status: Int?

    /// Creates a fake answering `status`, or failing when `status` is `nil`.
    init(status: Int? = 204) {
        self.status = status
    }

    /// Records the post, then answers.
    func post(url: String, headers: [(String, String)], body: [UInt8]) async throws -> Int {
        let post = Post(
            url: url, headers: headers.map { "\($0.0): \($0.1)" }, body: String(decoding: body, as: UTF8.self))
        self.posts.withLock { $0.append(post) }
        guard let status else { throw OutboundHTTPError(message: "connection refused by \(url)") }
        return status
    }

    /// Every post so far.
    var recorded: [Post] { self.posts.withLock { $0 } }
}

/// Drives one PlacetoPay mock through HummingbirdTesting's `.router` framework.
struct PlacetoPayHarness: Sendable {
    /// The test client.
    let client: any TestClientProtocol
    /// The host under test (its clock is fixed at ``fixedBase``).
    let host: MockHost
    /// The default signer.
    var signer = PlacetoPaySigner()

    /// POSTs `body` plus a signed `auth` to the provider path `path` (e.g. `api/session`).
    func post(_ path: String, _ body: [String: Any] = [:], signer: PlacetoPaySigner? = nil) async throws -> TestResponse {
        var body = body
        body["auth"] = (signer ?? self.signer).auth()
        return try await self.raw(path, json: body)
    }

    /// POSTs `json` as is to the provider path `path`.
    func raw(_ path: String, json: [String: Any], contentType: String = "application/json") async throws -> TestResponse {
        let data = try JSONSerialization.data(withJSONObject: json)
        return try await self.client.send(
            .post, "/placetopay/\(path)", body: String(decoding: data, as: UTF8.self),
            headers: [.contentType: contentType])
    }

    /// Creates a session and returns its `requestId`.
    func create(_ body: [String: Any] = Self.sessionBody(), signer: PlacetoPaySigner? = nil) async throws -> Int {
        let response = try await self.post("api/session", body, signer: signer)
        #expect(response.status == .ok, "create failed: \(response.text)")
        return try #require(response.object()["requestId"] as? Int)
    }

    /// Queries a session and returns the body.
    func query(_ requestId: Int, signer: PlacetoPaySigner? = nil) async throws -> [String: Any] {
        let response = try await self.post("api/session/\(requestId)", signer: signer)
        #expect(response.status == .ok, "query failed: \(response.text)")
        return response.object()
    }

    /// Sends a control request under `/__paycheck/placetopay/`.
    func control(_ method: HTTPRequest.Method, _ path: String, _ body: [String: Any]? = nil) async throws
        -> TestResponse
    {
        let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        return try await self.client.send(method, "/__paycheck/placetopay/\(path)", body: text)
    }

    /// Pays session `requestId` as the payer with `card` and extra members (expiry, cvv, otp, amount).
    func pay(_ requestId: Int, card: String, _ extra: [String: Any] = [:]) async throws -> TestResponse {
        var body = extra
        body["requestId"] = requestId
        body["card"] = card
        return try await self.control(.post, "payer/pay", body)
    }

    /// Moves mock time forward.
    func advance(_ seconds: Double) {
        self.host.clock.advance(by: seconds)
    }

    /// A valid create body; `payment` members and top-level members may be added or replaced.
    static func sessionBody(
        reference: String = "PAYCHECK-1",
        total: Double = 10000,
        payment extraPayment: [String: Any] = [:],
        _ extra: [String: Any] = [:]
    ) -> [String: Any] {
        var payment: [String: Any] = [
            "reference": reference, "description": "PayCheck conformance",
            "amount": ["currency": "COP", "total": total],
        ]
        payment.merge(extraPayment) { $1 }
        var body: [String: Any] = [
            "locale": "en_US", "payment": payment, "returnUrl": "https://merchant.example/return",
            "ipAddress": "127.0.0.1", "userAgent": "PayCheck tests",
        ]
        body.merge(extra) { $1 }
        return body
    }
}

/// Runs `test` against a fresh host serving only the PlacetoPay mock, with a fixed clock.
func withPlacetoPay(
    outbound: any OutboundHTTP = RecordingOutbound(),
    _ test: @Sendable (PlacetoPayHarness) async throws -> Void
) async throws {
    // The suites' merchant is merchant.example: allowed as a notification host, as `--allow-notify-host` would.
    let host = MockHost(
        providers: [PlacetoPayMock()], clock: fixedClock(), outbound: outbound,
        policy: NetworkPolicy(notifyHosts: ["merchant.example"]))
    try await withRouter(host) { client in
        try await test(PlacetoPayHarness(client: client, host: host))
    }
}

/// The value at a dotted `path` ("payment.0.status.status") inside parsed JSON.
func value(_ json: Any?, _ path: String) -> Any? {
    var current = json
    for key in path.split(separator: ".") {
        if let index = Int(key), let array = current as? [Any] {
            current = index < array.count ? array[index] : nil
        } else {
            current = (current as? [String: Any])?[String(key)]
        }
    }
    return current
}

/// The string at `path`.
func string(_ json: Any?, _ path: String) -> String? {
    value(json, path) as? String
}
