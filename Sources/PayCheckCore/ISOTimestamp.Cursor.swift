/// The byte cursor of the ISO 8601 parser.
extension ISOTimestamp {
    /// A cursor over ASCII bytes for the date-time grammar of ``ISOTimestamp/parse(_:timeZoneWhenOffsetMissing:)``.
    struct Cursor {
        /// The bytes being read.
        let bytes: [UInt8]
        /// The index of the next unread byte.
        var index = 0

        /// Creates a cursor at the start of `bytes`.
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// Whether every byte has been read.
        var isAtEnd: Bool { index == bytes.count }

        /// Consumes `character` if it is next.
        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Consumes exactly `count` ASCII digits and returns their value.
        mutating func digits(exactly count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        /// Consumes a run of digits and returns it as a fraction of one, with the number of digits read.
        mutating func fraction() -> (Double, Int)? {
            var value = 0.0
            var scale = 1.0
            var count = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                scale /= 10
                value += Double(bytes[index] - UInt8(ascii: "0")) * scale
                count += 1
                index += 1
            }
            return count == 0 ? nil : (value, count)
        }
    }
}
