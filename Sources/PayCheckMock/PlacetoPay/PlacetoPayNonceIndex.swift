import Foundation
import PayCheckProviders

/// The nonces the mock accepted, per login, with the seed time of the request that used each one (§1.2).
///
/// Why not keep a `PlacetoPayAuthVerifier.NonceLedger` of every nonce: `verify(_:now:seenNonces:)` is a pure
/// function over a ledger value, so it prunes the whole ledger (a `filter`) and records into a copy of it on
/// every call. With every nonce of the last five minutes in it, one request cost O(n) in the traffic of that
/// window; under load (Benchmarks/, `wrk` on createSession) the copies dominated the profile and throughput fell
/// as the run went on. Here a lookup is O(1) and pruning is amortized, and ``ledger(for:)`` hands the verifier a
/// ledger holding at most the one entry that can matter — the earlier use of this request's nonce by this
/// login — so the verifier's decision is exactly the one it would make with the full ledger: it prunes that
/// entry by the same rule (seed older than `now − clockTolerance`) before looking it up.
struct PlacetoPayNonceIndex {
    /// One accepted nonce of one login.
    private struct Key: Hashable {
        /// The login that used the nonce.
        var login: String
        /// The canonical Base64 of the raw nonce (two spellings of one raw nonce are one nonce).
        var nonce: String
    }

    /// The seed time of each accepted nonce.
    private var seeds: [Key: Date] = [:]
    /// The size after the last pruning; the next pruning happens when the index has doubled since.
    private var sizeAfterPruning = 0
    /// Below this size the index is never pruned (entries are tiny; pruning small maps gains nothing).
    private static let pruneThreshold = 4096

    /// Creates an empty index.
    init() {}

    /// The number of nonces remembered (including expired ones not yet pruned).
    var count: Int { self.seeds.count }

    /// The key of `credentials`, or `nil` when the login or nonce is missing or the nonce is not Base64 (the
    /// verifier refuses such requests before it looks at nonces).
    private static func key(_ credentials: PlacetoPayAuthVerifier.Credentials) -> Key? {
        guard let login = credentials.login, !login.isEmpty, let nonce = credentials.nonce, !nonce.isEmpty,
            let raw = Data(base64Encoded: nonce), !raw.isEmpty
        else { return nil }
        return Key(login: login, nonce: raw.base64EncodedString())
    }

    /// The ledger to pass to the verifier for `credentials`: empty, or the one earlier use of the same nonce.
    func ledger(for credentials: PlacetoPayAuthVerifier.Credentials) -> PlacetoPayAuthVerifier.NonceLedger {
        var ledger = PlacetoPayAuthVerifier.NonceLedger()
        if let key = Self.key(credentials), let seed = self.seeds[key] {
            ledger.record(login: key.login, nonce: key.nonce, seedDate: seed)
        }
        return ledger
    }

    /// Remembers the nonce of `credentials`, accepted by the verifier at `now` (keeping the latest seed, as the
    /// ledger does), and now and then forgets nonces whose seed is older than `now − tolerance`.
    mutating func recordAccepted(
        _ credentials: PlacetoPayAuthVerifier.Credentials, now: Date, tolerance: TimeInterval,
        seedTimeZone: TimeZone?
    ) {
        guard let key = Self.key(credentials),
            let seed = credentials.seed.flatMap({ PlacetoPaySeed.parse($0, timeZoneWhenOffsetMissing: seedTimeZone) })
        else { return }
        self.seeds[key] = max(self.seeds[key] ?? seed, seed)
        if self.seeds.count >= max(Self.pruneThreshold, 2 * self.sizeAfterPruning) {
            let cutoff = now.addingTimeInterval(-tolerance)
            self.seeds = self.seeds.filter { $0.value >= cutoff }
            self.sizeAfterPruning = self.seeds.count
        }
    }
}
