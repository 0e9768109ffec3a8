import Foundation
import PayCheckProviders
import Testing

/// Server-side auth verification: every failure code, the clock window, replay, SHA-1 and the check order.
@Suite("PlacetoPay auth verifier")
struct PlacetoPayAuthVerifierTests {
    typealias Verifier = PlacetoPayAuthVerifier

    /// The mock's "now": 2026-01-15T10:00:00-05:00.
    static let now = Date(timeIntervalSince1970: 1_768_489_200)
    static let seed = "2026-01-15T10:00:00-05:00"

    static let sites: [String: Verifier.Site] = [
        "active": .init(secretKey: "s3cr3t-KEY"),
        "inactive": .init(secretKey: "s3cr3t-KEY", status: .inactive),
        "expired": .init(secretKey: "s3cr3t-KEY", status: .expired),
        "expiredCredentials": .init(secretKey: "s3cr3t-KEY", status: .expiredCredentials),
    ]

    /// Credentials for `login`, signed with `secretKey` at `seed`.
    static func credentials(
        login: String = "active",
        secretKey: String = "s3cr3t-KEY",
        rawNonce: String = "paycheck-nonce-1",
        seed: String = seed,
        algorithm: PlacetoPayHashAlgorithm = .sha256
    ) -> Verifier.Credentials {
        Verifier.Credentials(
            PlacetoPayAuth.make(
                login: login, secretKey: secretKey, rawNonce: rawNonce, seed: seed, algorithm: algorithm))
    }

    /// Verifies with a fresh ledger.
    static func outcome(
        _ credentials: Verifier.Credentials,
        options: Verifier.Options = .init(),
        now: Date = now
    ) -> Verifier.Outcome {
        Verifier(sites: sites, options: options).verify(credentials, now: now, seenNonces: .init()).outcome
    }

    @Test("the §1.2 vector authenticates and records its nonce")
    func ok() {
        let result = Verifier(sites: Self.sites).verify(Self.credentials(), now: Self.now, seenNonces: .init())
        #expect(result.outcome == .ok)
        #expect(result.algorithm == .sha256)
        #expect(result.seenNonces.contains(scope: "active", nonce: "cGF5Y2hlY2stbm9uY2UtMQ=="))
        #expect(result.seenNonces.count == 1)
    }

    @Test("the literal §1.2 wire values authenticate")
    func literalWireValues() {
        let credentials = Verifier.Credentials(
            login: "active", tranKey: "yXvPG2c1cY7/toXlfaeiB7C9yI9Ce6lubRNUAiPv3Jk=",
            nonce: "cGF5Y2hlY2stbm9uY2UtMQ==", seed: Self.seed)
        #expect(Self.outcome(credentials) == .ok)
    }

    @Test(
        "100 for missing, empty or malformed fields",
        arguments: [
            Verifier.Credentials(login: nil, tranKey: "x", nonce: "cGF5", seed: seed),
            Verifier.Credentials(login: "active", tranKey: nil, nonce: "cGF5", seed: seed),
            Verifier.Credentials(login: "active", tranKey: "x", nonce: nil, seed: seed),
            Verifier.Credentials(login: "active", tranKey: "x", nonce: "cGF5", seed: nil),
            Verifier.Credentials(login: "", tranKey: "x", nonce: "cGF5", seed: seed),
            Verifier.Credentials(login: "active", tranKey: "", nonce: "cGF5", seed: seed),
            Verifier.Credentials(login: "active", tranKey: "x", nonce: "", seed: seed),
            Verifier.Credentials(login: "active", tranKey: "x", nonce: "cGF5", seed: ""),
            Verifier.Credentials(login: "active", tranKey: "x", nonce: "not base64!", seed: seed),
            Verifier.Credentials(login: "active", tranKey: "x", nonce: "cGF5Y2hlY2stbm9uY2UtMQ", seed: seed),
            Verifier.Credentials(login: "active", tranKey: "x", nonce: "cGF5", seed: "yesterday"),
            Verifier.Credentials(login: "active", tranKey: "x", nonce: "cGF5", seed: "2026-01-15T10:00:00"),
        ])
    func malformed(credentials: Verifier.Credentials) {
        #expect(Self.outcome(credentials) == .failed(.malformed))
    }

    @Test("101 for an unknown login")
    func unknownLogin() {
        #expect(Self.outcome(Self.credentials(login: "nobody")) == .failed(.unknownLogin))
    }

    @Test("102 for a wrong secret key or a tampered tranKey")
    func tranKeyMismatch() {
        #expect(Self.outcome(Self.credentials(secretKey: "wrong")) == .failed(.tranKeyMismatch))
        var tampered = Self.credentials()
        tampered.tranKey = "zXvPG2c1cY7/toXlfaeiB7C9yI9Ce6lubRNUAiPv3Jk="
        #expect(Self.outcome(tampered) == .failed(.tranKeyMismatch))
        tampered.tranKey = "not base64"
        #expect(Self.outcome(tampered) == .failed(.tranKeyMismatch))
    }

    @Test("102 when the seed is edited after signing (the seed is in the digest)")
    func seedIsSigned() {
        var credentials = Self.credentials()
        credentials.seed = "2026-01-15T10:00:01-05:00"
        #expect(Self.outcome(credentials) == .failed(.tranKeyMismatch))
    }

    @Test(
        "±5:00 exactly passes, ±5:01 fails with 103",
        arguments: [
            (-300.0, true), (300.0, true), (-301.0, false), (301.0, false), (-300.5, false), (299.999, true),
            (-86_400.0, false), (3600.0, false),
        ])
    func clockWindow(skew: Double, passes: Bool) {
        // The seed is fixed; moving "now" by -skew makes seed − now == skew.
        let outcome = Self.outcome(Self.credentials(), now: Self.now.addingTimeInterval(-skew))
        #expect(outcome == (passes ? .ok : .failed(.seedOutOfWindow)))
    }

    @Test("103 for a seed 6 minutes old, signed correctly")
    func staleSeed() {
        let credentials = Self.credentials(seed: "2026-01-15T09:54:00-05:00")
        #expect(Self.outcome(credentials) == .failed(.seedOutOfWindow))
    }

    @Test("a Python-style UTC seed with microseconds authenticates")
    func pythonSeed() {
        let credentials = Self.credentials(seed: "2026-01-15T15:02:30.810868+00:00")
        #expect(Self.outcome(credentials) == .ok)
    }

    @Test("the clock tolerance is configurable")
    func customTolerance() {
        let credentials = Self.credentials(seed: "2026-01-15T10:01:00-05:00")
        #expect(Self.outcome(credentials, options: .init(clockTolerance: 59)) == .failed(.seedOutOfWindow))
        #expect(Self.outcome(credentials, options: .init(clockTolerance: 60)) == .ok)
    }

    @Test(
        "104, 105, 106 for inactive site, expired site, expired credentials",
        arguments: [
            ("inactive", 104), ("expired", 105), ("expiredCredentials", 106),
        ])
    func siteStatus(login: String, code: Int) throws {
        let expected = try #require(Verifier.FailureCode(rawValue: code))
        #expect(Self.outcome(Self.credentials(login: login)) == .failed(expected))
    }

    @Test("SHA-1 tranKeys are refused by default and accepted behind the flag")
    func sha1Flag() {
        let credentials = Self.credentials(algorithm: .sha1)
        #expect(Self.outcome(credentials) == .failed(.tranKeyMismatch))
        let result = Verifier(sites: Self.sites, options: .init(acceptsSHA1: true))
            .verify(credentials, now: Self.now, seenNonces: .init())
        #expect(result.outcome == .ok)
        #expect(result.algorithm == .sha1)
    }

    @Test("a replayed nonce is refused with 102 by default")
    func replayDefault() {
        let verifier = Verifier(sites: Self.sites)
        let first = verifier.verify(Self.credentials(), now: Self.now, seenNonces: .init())
        #expect(first.outcome == .ok)
        let second = verifier.verify(Self.credentials(), now: Self.now.addingTimeInterval(10), seenNonces: first.seenNonces)
        #expect(second.outcome == .failed(.tranKeyMismatch))
        // The same raw nonce with a fresh seed is still a replay.
        let reseeded = Self.credentials(seed: "2026-01-15T10:00:05-05:00")
        #expect(verifier.verify(reseeded, now: Self.now, seenNonces: first.seenNonces).outcome == .failed(.tranKeyMismatch))
        // A different nonce passes.
        let fresh = Self.credentials(rawNonce: "paycheck-nonce-2")
        #expect(verifier.verify(fresh, now: Self.now, seenNonces: first.seenNonces).outcome == .ok)
    }

    @Test("the replay code and the replay check are configurable")
    func replayPolicy() {
        let ledger = Verifier(sites: Self.sites).verify(Self.credentials(), now: Self.now, seenNonces: .init()).seenNonces
        let as100 = Verifier(sites: Self.sites, options: .init(replayPolicy: .reject(.malformed)))
        #expect(as100.verify(Self.credentials(), now: Self.now, seenNonces: ledger).outcome == .failed(.malformed))
        let allow = Verifier(sites: Self.sites, options: .init(replayPolicy: .allow))
        #expect(allow.verify(Self.credentials(), now: Self.now, seenNonces: ledger).outcome == .ok)
    }

    @Test("nonces are per login")
    func replayPerLogin() {
        let sites = Self.sites.merging(["other": .init(secretKey: "other-key")]) { $1 }
        let verifier = Verifier(sites: sites)
        let ledger = verifier.verify(Self.credentials(), now: Self.now, seenNonces: .init()).seenNonces
        let other = Self.credentials(login: "other", secretKey: "other-key")
        #expect(verifier.verify(other, now: Self.now, seenNonces: ledger).outcome == .ok)
    }

    @Test("failed attempts do not burn the nonce")
    func failuresAreNotRecorded() {
        let verifier = Verifier(sites: Self.sites)
        let failed = verifier.verify(Self.credentials(secretKey: "wrong"), now: Self.now, seenNonces: .init())
        #expect(failed.outcome == .failed(.tranKeyMismatch))
        #expect(failed.seenNonces.count == 0)
        #expect(verifier.verify(Self.credentials(), now: Self.now, seenNonces: failed.seenNonces).outcome == .ok)
    }

    @Test("nonces older than the window are pruned")
    func pruning() {
        let verifier = Verifier(sites: Self.sites)
        let ledger = verifier.verify(Self.credentials(), now: Self.now, seenNonces: .init()).seenNonces
        let later = Self.now.addingTimeInterval(301)
        let fresh = Self.credentials(rawNonce: "n2", seed: PlacetoPayAuth.seed(for: later, timeZone: .init(secondsFromGMT: 0)!))
        let result = verifier.verify(fresh, now: later, seenNonces: ledger)
        #expect(result.outcome == .ok)
        #expect(result.seenNonces.contains(scope: "active", nonce: "cGF5Y2hlY2stbm9uY2UtMQ==") == false)
        #expect(result.seenNonces.count == 1)
    }

    @Test(
        "check order: 100 before 101 before 103 before 102 before 104–106",
        arguments: [
            // Malformed seed wins over an unknown login.
            (Verifier.Credentials(login: "nobody", tranKey: "x", nonce: "cGF5", seed: "bad"), Verifier.FailureCode.malformed),
            // Unknown login wins over a stale seed.
            (credentials(login: "nobody", seed: "2020-01-01T00:00:00Z"), .unknownLogin),
            // Stale seed wins over a wrong tranKey.
            (credentials(secretKey: "wrong", seed: "2020-01-01T00:00:00Z"), .seedOutOfWindow),
            // A wrong tranKey hides the site's state.
            (credentials(login: "inactive", secretKey: "wrong"), .tranKeyMismatch),
            (credentials(login: "expiredCredentials", secretKey: "wrong"), .tranKeyMismatch),
            // Stale seed on an inactive site.
            (credentials(login: "expired", seed: "2020-01-01T00:00:00Z"), .seedOutOfWindow),
        ])
    func checkOrder(credentials: Verifier.Credentials, code: Verifier.FailureCode) {
        #expect(Self.outcome(credentials) == .failed(code))
    }

    @Test(
        "failure messages follow the documented text",
        arguments: [
            (Verifier.FailureCode.tranKeyMismatch, Optional("es_CO"), "Autenticación fallida 102"),
            (.unknownLogin, "en_US", "Authentication failed 101"),
            (.malformed, nil, "Authentication failed 100"),
        ])
    func messages(code: Verifier.FailureCode, locale: String?, expected: String) {
        #expect(code.message(locale: locale) == expected)
    }
}
