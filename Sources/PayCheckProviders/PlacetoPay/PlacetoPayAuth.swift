package import Foundation

/// The `auth` object sent in the body of every PlacetoPay Checkout request (providers.md §1.2).
///
/// `tranKey = Base64(digest(rawNonce + seed + secretKey))` over the *raw* digest bytes, where the raw nonce (not
/// its Base64 form) enters the hash and `nonce = Base64(rawNonce)` goes on the wire. Build values with
/// `make(login:secretKey:rawNonce:seed:algorithm:)`; it is pure, so the caller injects randomness and the clock
/// (see `rawNonce(from:)` and `seed(for:timeZone:)`).
package struct PlacetoPayAuth: Sendable, Hashable, Codable {
    /// The site identifier (public).
    package var login: String
    /// `Base64(digest(rawNonce + seed + secretKey))`.
    package var tranKey: String
    /// The raw nonce, Base64-encoded for the wire.
    package var nonce: String
    /// The ISO 8601 date-time with offset that entered the digest, e.g. `2026-01-15T10:00:00-05:00`.
    package var seed: String

    /// Creates an `auth` object from wire values as they are, without computing anything.
    package init(login: String, tranKey: String, nonce: String, seed: String) {
        self.login = login
        self.tranKey = tranKey
        self.nonce = nonce
        self.seed = seed
    }

    /// The object as JSON-ready key/value pairs: `login`, `tranKey`, `nonce`, `seed`.
    package func json() -> [String: String] {
        ["login": login, "tranKey": tranKey, "nonce": nonce, "seed": seed]
    }

    /// Builds the `auth` object for a request from an arbitrary-byte raw nonce.
    ///
    /// - Parameters:
    ///   - login: the site login.
    ///   - secretKey: the site secret key (never sent).
    ///   - rawNonce: the raw nonce bytes; `checkout-p2p` uses 16 random bytes as they are, the PHP SDK uses
    ///     their 32-character hex text (see `rawNonce(from:)`).
    ///   - seed: the seed text exactly as it will be sent.
    ///   - algorithm: `.sha256` (documented) or `.sha1` (legacy).
    package static func make(
        login: String,
        secretKey: String,
        rawNonce: [UInt8],
        seed: String,
        algorithm: PlacetoPayHashAlgorithm = .sha256
    ) -> PlacetoPayAuth {
        PlacetoPayAuth(
            login: login,
            tranKey: tranKey(rawNonce: rawNonce, seed: seed, secretKey: secretKey, algorithm: algorithm),
            nonce: Data(rawNonce).base64EncodedString(),
            seed: seed
        )
    }

    /// Builds the `auth` object for a request from a text raw nonce, hashed as its UTF-8 bytes.
    package static func make(
        login: String,
        secretKey: String,
        rawNonce: String,
        seed: String,
        algorithm: PlacetoPayHashAlgorithm = .sha256
    ) -> PlacetoPayAuth {
        make(login: login, secretKey: secretKey, rawNonce: Array(rawNonce.utf8), seed: seed, algorithm: algorithm)
    }

    /// Computes `Base64(digest(rawNonce + seed + secretKey))` with the seed and key taken as UTF-8.
    package static func tranKey(
        rawNonce: [UInt8],
        seed: String,
        secretKey: String,
        algorithm: PlacetoPayHashAlgorithm = .sha256
    ) -> String {
        Data(tranKeyDigest(rawNonce: rawNonce, seed: seed, secretKey: secretKey, algorithm: algorithm))
            .base64EncodedString()
    }

    /// Formats `date` as a seed like PHP `date('c')`, e.g. `2026-01-15T10:00:00-05:00`.
    package static func seed(for date: Date, timeZone: TimeZone) -> String {
        PlacetoPaySeed.format(date, timeZone: timeZone)
    }

    /// Turns random bytes into a raw nonce the way the PHP SDK does: `bin2hex(random_bytes(16))`.
    ///
    /// Pass 16 bytes from a secure source to match the SDK (32 lowercase hex characters); any count works.
    package static func rawNonce(from randomBytes: [UInt8]) -> String {
        PlacetoPayBytes.lowercaseHex(randomBytes)
    }

    /// The raw digest bytes of `rawNonce + seed + secretKey`.
    static func tranKeyDigest(
        rawNonce: [UInt8],
        seed: String,
        secretKey: String,
        algorithm: PlacetoPayHashAlgorithm
    ) -> [UInt8] {
        algorithm.digest(rawNonce + Array(seed.utf8) + Array(secretKey.utf8))
    }
}
