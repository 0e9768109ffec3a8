/// A 128-bit digest of text that is the same on every machine and every run (two FNV-1a 64-bit hashes with
/// different offsets), written as 32 hex characters. It identifies content — a suite set, a report's selection —
/// and is no security measure.
package struct StableDigest: Sendable {
    /// The two running hashes.
    private var first: UInt64 = 0xcbf2_9ce4_8422_2325
    private var second: UInt64 = 0x6c62_272e_07bb_0142

    /// An empty digest.
    package init() {}

    /// Adds `text`, then a separator, so `["ab", "c"]` and `["a", "bc"]` differ.
    package mutating func add(_ text: String) {
        for byte in text.utf8 { self.mix(byte) }
        self.mix(0xff)
    }

    /// The digest so far, as 32 lowercase hex characters.
    package var hex: String {
        [self.first, self.second].map { word in
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    /// The digest of `parts`, in order.
    package static func of(_ parts: [String]) -> String {
        var digest = StableDigest()
        for part in parts { digest.add(part) }
        return digest.hex
    }

    private mutating func mix(_ byte: UInt8) {
        self.first = (self.first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        self.second = (self.second ^ UInt64(byte ^ 0x5a)) &* 0x0000_0100_0000_01b3
    }
}
