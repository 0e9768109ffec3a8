/// Byte helpers shared by the PlacetoPay signers, kept in a namespace so they cannot clash with other providers.
enum PlacetoPayBytes {
    /// The lowercase hexadecimal digits, indexed by nibble value.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Encodes `bytes` as lowercase hexadecimal, two characters per byte.
    static func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Compares two byte strings in time that depends only on their lengths, never on where they differ.
    ///
    /// Lengths are public (a digest's length follows from its algorithm), so an early exit on a length mismatch
    /// leaks nothing secret.
    static func constantTimeEquals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) {
            difference |= left ^ right
        }
        return difference == 0
    }
}
