/// The `signature` of a PlacetoPay merchant notification (webhook), providers.md §1.9.
///
/// `digest(requestId + status.status + status.date + secretKey)` in lowercase hex, over the values exactly as
/// sent (requestId in decimal, date verbatim). SHA-256 signatures carry the prefix `sha256:`; legacy sites get the
/// bare 40-hex SHA-1 (the `dnetix/redirection` PHP SDK only knows SHA-1).
package enum PlacetoPayNotificationSignature {
    /// The prefix of a SHA-256 signature.
    static let sha256Prefix = "sha256:"

    /// Signs a notification: `sha256:<64 hex>` for `.sha256`, bare `<40 hex>` for `.sha1`.
    package static func sign(
        requestId: Int,
        status: String,
        date: String,
        secretKey: String,
        algorithm: PlacetoPayHashAlgorithm = .sha256
    ) -> String {
        sign(requestId: String(requestId), status: status, date: date, secretKey: secretKey, algorithm: algorithm)
    }

    /// Signs a notification whose `requestId` is given as the exact text that enters the hash.
    package static func sign(
        requestId: String,
        status: String,
        date: String,
        secretKey: String,
        algorithm: PlacetoPayHashAlgorithm = .sha256
    ) -> String {
        let hex = PlacetoPayBytes.lowercaseHex(
            digest(requestId: requestId, status: status, date: date, secretKey: secretKey, algorithm: algorithm))
        switch algorithm {
        case .sha256:
            return sha256Prefix + hex
        case .sha1:
            return hex
        }
    }

    /// Checks `signature` against the one expected for `algorithm`, comparing digests in constant time.
    ///
    /// `algorithm` is the site's configured algorithm, not guessed from the signature, so a SHA-1 signature is
    /// refused for a SHA-256 site (no downgrade). Hex digits may be upper or lower case; the `sha256:` prefix must
    /// be present for SHA-256 and absent for SHA-1.
    package static func verify(
        _ signature: String,
        requestId: Int,
        status: String,
        date: String,
        secretKey: String,
        algorithm: PlacetoPayHashAlgorithm = .sha256
    ) -> Bool {
        verify(
            signature, requestId: String(requestId), status: status, date: date, secretKey: secretKey,
            algorithm: algorithm)
    }

    /// Checks `signature` for a notification whose `requestId` is given as the exact text that was hashed.
    package static func verify(
        _ signature: String,
        requestId: String,
        status: String,
        date: String,
        secretKey: String,
        algorithm: PlacetoPayHashAlgorithm = .sha256
    ) -> Bool {
        var hexPart = Substring(signature)
        switch algorithm {
        case .sha256:
            guard hexPart.hasPrefix(sha256Prefix) else { return false }
            hexPart = hexPart.dropFirst(sha256Prefix.count)
        case .sha1:
            break
        }
        guard let received = decodeHex(hexPart) else { return false }
        let expected = digest(
            requestId: requestId, status: status, date: date, secretKey: secretKey, algorithm: algorithm)
        return PlacetoPayBytes.constantTimeEquals(expected, received)
    }

    /// The raw digest of `requestId + status + date + secretKey` (UTF-8).
    private static func digest(
        requestId: String,
        status: String,
        date: String,
        secretKey: String,
        algorithm: PlacetoPayHashAlgorithm
    ) -> [UInt8] {
        algorithm.digest(Array((requestId + status + date + secretKey).utf8))
    }

    /// Decodes hexadecimal text of even length; returns `nil` on any other character.
    private static func decodeHex(_ text: Substring) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// The value of one hexadecimal digit.
    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
