import Crypto
import Foundation

/// The digest used for a PlacetoPay `tranKey` or notification signature.
///
/// PlacetoPay documents SHA-256 as current and SHA-1 as the legacy algorithm: older sites, the legacy docs and
/// the `dnetix/redirection` PHP SDK (whose `Authentication` defaults to `sha1`) still use SHA-1
/// (providers.md §1.2 and §1.9).
package enum PlacetoPayHashAlgorithm: String, Sendable, Hashable, CaseIterable, Codable {
    /// SHA-256, the documented current algorithm.
    case sha256
    /// SHA-1, the legacy algorithm; accept it only where a site or a flag says so.
    case sha1

    /// Returns the raw digest bytes of `bytes`.
    func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        let data = Array(bytes)
        switch self {
        case .sha256:
            return Array(SHA256.hash(data: data))
        case .sha1:
            return Array(Insecure.SHA1.hash(data: data))
        }
    }
}
