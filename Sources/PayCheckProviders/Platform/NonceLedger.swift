package import Foundation

/// The nonces a provider already accepted, per scope (PlacetoPay: per login), with the time each was issued: the
/// one nonce store every signer check uses, in the adapters' verifiers and in the mocks.
///
/// Lookups ignore entries issued before a cutoff (a replay of such a request fails its freshness check anyway),
/// so pruning can be lazy: ``record(scope:nonce:issuedAt:pruningBefore:)`` prunes only when the ledger has doubled
/// since the last pruning. A lookup is O(1) and a record amortized O(1) — under load (Benchmarks/, `wrk` on
/// PlacetoPay's createSession) an eager prune per request made throughput fall as a run went on.
package struct NonceLedger: Sendable, Hashable {
    /// One accepted nonce in one scope.
    private struct Key: Sendable, Hashable {
        /// The scope, e.g. the login that used the nonce.
        var scope: String
        /// The nonce in a canonical spelling.
        var nonce: String
    }

    /// The issue time of each accepted nonce.
    private var issued: [Key: Date] = [:]
    /// The size after the last pruning.
    private var sizeAfterPruning = 0
    /// Below this size the ledger is never pruned lazily (entries are tiny).
    private static let pruneThreshold = 4096

    /// Creates an empty ledger.
    package init() {}

    /// The number of nonces remembered (including stale ones not yet pruned).
    package var count: Int { issued.count }

    /// Whether `nonce` was accepted in `scope` by a request issued at or after `cutoff` (by default, ever).
    package func contains(scope: String, nonce: String, issuedSince cutoff: Date = .distantPast) -> Bool {
        guard let date = issued[Key(scope: scope, nonce: nonce)] else { return false }
        return date >= cutoff
    }

    /// Remembers that `nonce` was accepted in `scope` for a request issued at `date` (keeping the latest), and now
    /// and then forgets entries issued before `cutoff`.
    package mutating func record(scope: String, nonce: String, issuedAt date: Date, pruningBefore cutoff: Date? = nil) {
        let key = Key(scope: scope, nonce: nonce)
        issued[key] = max(issued[key] ?? date, date)
        if let cutoff, issued.count >= max(Self.pruneThreshold, 2 * sizeAfterPruning) { prune(issuedBefore: cutoff) }
    }

    /// Forgets every entry issued before `cutoff`.
    mutating func prune(issuedBefore cutoff: Date) {
        issued = issued.filter { $0.value >= cutoff }
        sizeAfterPruning = issued.count
    }
}
