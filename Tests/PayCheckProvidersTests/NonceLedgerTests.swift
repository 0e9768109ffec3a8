import Foundation
import PayCheckProviders
import Testing

/// The one nonce store: O(1) lookups that ignore stale entries, lazy pruning.
@Suite("Nonce ledger")
struct NonceLedgerTests {
    let t0 = Date(timeIntervalSince1970: 1_768_471_200)

    @Test("a nonce counts per scope, and not once it is older than the cutoff")
    func lookups() {
        var ledger = NonceLedger()
        ledger.record(scope: "a", nonce: "n1", issuedAt: t0)
        #expect(ledger.contains(scope: "a", nonce: "n1"))
        #expect(!ledger.contains(scope: "b", nonce: "n1"))
        #expect(ledger.contains(scope: "a", nonce: "n1", issuedSince: t0))
        #expect(!ledger.contains(scope: "a", nonce: "n1", issuedSince: t0.addingTimeInterval(1)))
    }

    @Test("stale entries are pruned lazily, once the ledger has doubled, never the fresh ones")
    func lazyPruning() {
        var ledger = NonceLedger()
        for index in 0..<4095 { ledger.record(scope: "s", nonce: "old-\(index)", issuedAt: t0, pruningBefore: t0) }
        #expect(ledger.count == 4095)
        let later = t0.addingTimeInterval(600)
        ledger.record(scope: "s", nonce: "fresh", issuedAt: later, pruningBefore: later.addingTimeInterval(-300))
        #expect(ledger.count == 1)
        #expect(ledger.contains(scope: "s", nonce: "fresh"))
    }
}
