package import Foundation

extension PlacetoPayAuthVerifier {
    /// Tunable behaviour of the verifier; the defaults follow the documented behaviour.
    package struct Options: Sendable, Hashable {
        /// The largest allowed `|seed − now|`, inclusive; 300 s ("at most 5 minutes", providers.md §1.2).
        package var clockTolerance: TimeInterval
        /// Whether a legacy SHA-1 `tranKey` is accepted besides SHA-256; off by default (providers.md §1.2).
        ///
        /// Turn it on to serve the `dnetix/redirection` PHP SDK, which always sends SHA-1 tranKeys.
        package var acceptsSHA1: Bool
        /// What to do with a nonce already accepted for the same login.
        package var replayPolicy: ReplayPolicy
        /// The zone in which to read a seed that has no UTC offset; `nil` (the default) rejects it with 100.
        var seedTimeZoneWhenOffsetMissing: TimeZone?

        /// Creates options; every parameter defaults to the documented behaviour.
        package init(
            clockTolerance: TimeInterval = 300,
            acceptsSHA1: Bool = false,
            replayPolicy: ReplayPolicy = .reject(.tranKeyMismatch),
            seedTimeZoneWhenOffsetMissing: TimeZone? = nil
        ) {
            self.clockTolerance = clockTolerance
            self.acceptsSHA1 = acceptsSHA1
            self.replayPolicy = replayPolicy
            self.seedTimeZoneWhenOffsetMissing = seedTimeZoneWhenOffsetMissing
        }

        /// The digests tried, in order.
        var acceptedAlgorithms: [PlacetoPayHashAlgorithm] {
            acceptsSHA1 ? [.sha256, .sha1] : [.sha256]
        }
    }

    /// How a replayed nonce is treated; providers.md gives no code for it, so this is a design choice [I].
    package enum ReplayPolicy: Sendable, Hashable {
        /// Accept reused nonces (no replay check).
        case allow
        /// Refuse a reused nonce with `code` (default `.tranKeyMismatch`, 102).
        case reject(FailureCode)
    }

    /// A known site: its secret key and its state.
    package struct Site: Sendable, Hashable, Codable {
        /// The secret key the tranKey is computed with.
        package var secretKey: String
        /// Whether the site may authenticate.
        package var status: SiteStatus

        /// Creates a site; it is active unless `status` says otherwise.
        package init(secretKey: String, status: SiteStatus = .active) {
            self.secretKey = secretKey
            self.status = status
        }
    }

    /// The state of a site, mapped to the auth codes 104–106 (providers.md §1.3).
    package enum SiteStatus: String, Sendable, Hashable, Codable, CaseIterable {
        /// The site may authenticate.
        case active
        /// Inactive site: 104.
        case inactive
        /// Expired site: 105.
        case expired
        /// Expired credentials: 106.
        case expiredCredentials
    }
}
