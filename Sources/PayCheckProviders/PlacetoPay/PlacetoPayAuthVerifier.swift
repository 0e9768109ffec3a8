package import Foundation

/// Server-side check of a PlacetoPay `auth` object, as the mock needs it; a pure function of its inputs.
///
/// `verify(_:now:seenNonces:)` reads no clock and keeps no state: the caller passes the mock's current time and
/// the nonces already accepted, and gets back the outcome and the updated nonce ledger.
///
/// ## Check order
/// The first failing check decides the code. providers.md §1.2/§1.3 lists the codes but not the order the live
/// server applies them in, so the order is a design decision [I]:
/// 1. **100** — structure: `login`, `tranKey`, `nonce` and `seed` are all present and non-empty, `nonce` is
///    standard padded Base64 of at least one byte, and `seed` parses as ISO 8601 with an offset
///    (`PlacetoPaySeed.parse`). Cheap checks on the request alone come first.
/// 2. **101** — `login` names a known site.
/// 3. **103** — `|seed − now| ≤ clockTolerance` (default 300 s). The docs say the seed may differ by "at most
///    5 minutes" (providers.md §1.2), so exactly 5:00 passes and anything later fails, in either direction. The
///    window is checked before the digest, as WS-Security UsernameToken validators check `Created` freshness
///    before the password digest (the docs say the API "uses Web Services Security UsernameToken Profile 1.1").
/// 4. **102** — `tranKey` equals `Base64(SHA-256(rawNonce + seed + secretKey))`, compared in constant time; with
///    `Options.acceptsSHA1` the legacy SHA-1 digest is accepted too (default off; providers.md §1.2 says SHA-1
///    acceptance by the live server is undocumented).
/// 5. **Replay** — a nonce already accepted for this login within the window is refused, by default with
///    **102** (see `ReplayPolicy`).
/// 6. **104 / 105 / 106** — site inactive, site expired, credentials expired. These come after the digest so
///    that only a caller who knows the secret key learns the state of the site.
///
/// A nonce is recorded in the ledger only when the outcome is `.ok`.
///
/// ## Replay code
/// The docs give no code for a replayed nonce. The default is **102**: the request is well formed (so not
/// 100), and the UsernameToken profile treats a reused nonce like a wrong digest ("FailedAuthentication"), which
/// also keeps a replay indistinguishable from a forged `tranKey`. `ReplayPolicy` can pick another code or turn
/// the check off.
package struct PlacetoPayAuthVerifier: Sendable {
    /// The known sites, by login.
    package var sites: [String: Site]
    /// The tunable behaviour: clock tolerance, SHA-1, replay policy.
    package var options: Options

    /// Creates a verifier for `sites` with `options`.
    package init(sites: [String: Site], options: Options = Options()) {
        self.sites = sites
        self.options = options
    }

    /// Checks `credentials` at time `now` against the sites and the nonces in `seenNonces`, and returns the
    /// outcome with the updated ledger (a pure function: the ledger goes in and comes out).
    ///
    /// Entries of `seenNonces` whose seed is older than `now − clockTolerance` are pruned first: a replay of such
    /// a request already fails with 103. (So the mock clock must not run backwards by more than the tolerance.)
    package func verify(_ credentials: Credentials, now: Date, seenNonces: NonceLedger) -> Verification {
        var ledger = seenNonces
        ledger.prune(issuedBefore: now.addingTimeInterval(-options.clockTolerance))
        var verification = verify(credentials, now: now, nonces: &ledger)
        verification.seenNonces = ledger
        return verification
    }

    /// The same check against a ledger kept in place (the mock's), which records an accepted nonce and prunes
    /// lazily; a nonce seen with a seed older than `now − clockTolerance` does not count as a replay.
    package func verify(_ credentials: Credentials, now: Date, nonces ledger: inout NonceLedger) -> Verification {
        let cutoff = now.addingTimeInterval(-options.clockTolerance)
        func failure(_ code: FailureCode, algorithm: PlacetoPayHashAlgorithm? = nil) -> Verification {
            Verification(outcome: .failed(code), algorithm: algorithm, seenNonces: NonceLedger())
        }

        guard let login = Self.nonEmpty(credentials.login),
            let tranKey = Self.nonEmpty(credentials.tranKey),
            let nonce = Self.nonEmpty(credentials.nonce),
            let seed = Self.nonEmpty(credentials.seed),
            let rawNonce = Data(base64Encoded: nonce), !rawNonce.isEmpty,
            let seedDate = PlacetoPaySeed.parse(seed, timeZoneWhenOffsetMissing: options.seedTimeZoneWhenOffsetMissing)
        else { return failure(.malformed) }

        guard let site = sites[login] else { return failure(.unknownLogin) }

        guard abs(seedDate.timeIntervalSince(now)) <= options.clockTolerance else {
            return failure(.seedOutOfWindow)
        }

        let received = Array(Data(base64Encoded: tranKey) ?? Data())
        var matched: PlacetoPayHashAlgorithm?
        for algorithm in options.acceptedAlgorithms {
            let expected = PlacetoPayAuth.tranKeyDigest(
                rawNonce: Array(rawNonce), seed: seed, secretKey: site.secretKey, algorithm: algorithm)
            if PlacetoPayBytes.constantTimeEquals(expected, received), matched == nil {
                matched = algorithm
            }
        }
        guard let algorithm = matched else { return failure(.tranKeyMismatch) }

        // Key on the canonical Base64 of the decoded bytes: two spellings of one raw nonce are one nonce.
        let canonicalNonce = rawNonce.base64EncodedString()
        if case .reject(let code) = options.replayPolicy, ledger.contains(scope: login, nonce: canonicalNonce, issuedSince: cutoff) {
            var replay = failure(code, algorithm: algorithm)
            replay.replayed = true
            return replay
        }

        switch site.status {
        case .active:
            break
        case .inactive:
            return failure(.inactiveSite, algorithm: algorithm)
        case .expired:
            return failure(.expiredSite, algorithm: algorithm)
        case .expiredCredentials:
            return failure(.expiredCredentials, algorithm: algorithm)
        }

        ledger.record(scope: login, nonce: canonicalNonce, issuedAt: seedDate, pruningBefore: cutoff)
        return Verification(outcome: .ok, algorithm: algorithm, seenNonces: NonceLedger())
    }

    /// Returns `value` unless it is `nil` or empty.
    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}

extension PlacetoPayAuthVerifier {
    /// The four `auth` fields as received; `nil` when absent or not a JSON string.
    package struct Credentials: Sendable, Hashable {
        /// The received `auth.login`.
        package var login: String?
        /// The received `auth.tranKey`.
        package var tranKey: String?
        /// The received `auth.nonce` (Base64 of the raw nonce).
        package var nonce: String?
        /// The received `auth.seed`.
        package var seed: String?

        /// Creates received credentials; pass `nil` for a field that is missing or not a string.
        package init(login: String?, tranKey: String?, nonce: String?, seed: String?) {
            self.login = login
            self.tranKey = tranKey
            self.nonce = nonce
            self.seed = seed
        }

        /// Creates received credentials from a client-side `auth` object.
        package init(_ auth: PlacetoPayAuth) {
            self.init(login: auth.login, tranKey: auth.tranKey, nonce: auth.nonce, seed: auth.seed)
        }
    }

    /// Whether authentication passed.
    package enum Outcome: Sendable, Hashable {
        /// Authentication passed.
        case ok
        /// Authentication failed with the documented code.
        case failed(FailureCode)
    }

    /// The result of one check: the outcome, the digest that matched, and the updated nonce ledger.
    package struct Verification: Sendable, Hashable {
        /// Whether authentication passed, and if not, why.
        package var outcome: Outcome
        /// The algorithm whose digest matched `tranKey`; `nil` when the digest was not checked or did not match.
        package var algorithm: PlacetoPayHashAlgorithm?
        /// The nonce ledger to pass to the next call (from ``verify(_:now:seenNonces:)``; the in-place
        /// ``verify(_:now:nonces:)`` updates the caller's ledger instead and leaves this empty).
        package var seenNonces: NonceLedger
        /// Whether the nonce had been used before (the failure is a replay).
        package var replayed = false
    }
}
