import Foundation

extension PlacetoPayAuthVerifier {
    /// The nonces already accepted, per login, with the seed time of the request that used each one.
    ///
    /// A value type passed into and returned from `PlacetoPayAuthVerifier.verify(_:now:seenNonces:)`; the mock
    /// keeps the current ledger wherever it keeps its other state.
    public struct NonceLedger: Sendable, Hashable {
        /// One accepted nonce of one login.
        private struct Key: Sendable, Hashable {
            /// The login that used the nonce.
            var login: String
            /// The canonical Base64 of the raw nonce.
            var nonce: String
        }

        /// The seed time of each accepted nonce.
        private var seeds: [Key: Date] = [:]

        /// Creates an empty ledger.
        public init() {}

        /// The number of nonces remembered.
        public var count: Int { seeds.count }

        /// Whether `nonce` (canonical Base64) was accepted for `login`.
        public func contains(login: String, nonce: String) -> Bool {
            seeds[Key(login: login, nonce: nonce)] != nil
        }

        /// Remembers that `nonce` was accepted for `login` in a request seeded at `seedDate`.
        public mutating func record(login: String, nonce: String, seedDate: Date) {
            let key = Key(login: login, nonce: nonce)
            seeds[key] = max(seeds[key] ?? seedDate, seedDate)
        }

        /// Forgets nonces whose request seed is earlier than `cutoff`.
        public mutating func prune(seedsBefore cutoff: Date) {
            seeds = seeds.filter { $0.value >= cutoff }
        }
    }
}
