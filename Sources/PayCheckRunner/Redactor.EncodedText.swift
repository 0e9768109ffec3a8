extension Redactor {
    /// Reads text the way the encodings a secret may travel in would decode it, one character at a time.
    ///
    /// At each byte position a character can be read as written (its UTF-8 bytes) or, when the position starts
    /// an escape, as what the escape stands for:
    /// - percent-encoding: `%XX` per UTF-8 byte, hex digits in either case; `+` for a space (form encoding);
    /// - JSON: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX` and surrogate pairs;
    /// - HTML and XML: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NN;` and `&#xHH;`.
    /// Different characters of one secret may be read in different ways, which also covers encoders that escape
    /// only some characters. Matching keeps a small set of positions, so a text never costs more than a few
    /// comparisons per pattern character.
    enum EncodedText {
        /// A character read at a position: its scalar value and the position just past its encoding.
        struct Decoded {
            /// The Unicode scalar value.
            var scalar: UInt32
            /// The position after the character's bytes.
            var end: Int
        }

        /// The positions a partial match may have reached (at most four; ambiguity beyond that is not kept).
        struct Positions {
            /// The positions, the first `count` of which are set.
            private var slots: (Int, Int, Int, Int) = (0, 0, 0, 0)
            /// How many positions are set.
            private(set) var count = 0

            /// The position at `index` (below ``count``).
            subscript(index: Int) -> Int {
                switch index {
                case 0: slots.0
                case 1: slots.1
                case 2: slots.2
                default: slots.3
                }
            }

            /// Adds a position unless it is already there or the set is full.
            mutating func insert(_ position: Int) {
                for index in 0..<count where self[index] == position { return }
                switch count {
                case 0: slots.0 = position
                case 1: slots.1 = position
                case 2: slots.2 = position
                case 3: slots.3 = position
                default: return
                }
                count += 1
            }
        }

        /// Where `pattern` (whose first scalar was read up to `start`) ends when the rest follows, the
        /// furthest end if several readings match; `nil` when it does not.
        static func match(_ pattern: [UInt32], from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            // Fast path: plain ASCII text compares byte for byte until a byte that may start an escape.
            var position = start
            var next = 1
            while next < pattern.count, position < bytes.count {
                let byte = bytes[position]
                guard byte < 0x80, !mayStartEscape(byte) else { break }
                guard UInt32(byte) == pattern[next] else { return nil }
                position += 1
                next += 1
            }
            if next == pattern.count { return position }
            var positions = Positions()
            positions.insert(position)
            for scalar in pattern[next...] {
                var next = Positions()
                for index in 0..<positions.count {
                    let position = positions[index]
                    if let literal = literal(at: position, in: bytes), literal.scalar == scalar { next.insert(literal.end) }
                    if let escaped = escaped(at: position, in: bytes), escaped.scalar == scalar { next.insert(escaped.end) }
                }
                guard next.count > 0 else { return nil }
                positions = next
            }
            var end = positions[0]
            for index in 0..<positions.count { end = max(end, positions[index]) }
            return end
        }

        /// Whether a byte may start an escape (`%`, `\`, `&` or `+`), so that ``escaped(at:in:)`` must look.
        @inline(__always)
        static func mayStartEscape(_ byte: UInt8) -> Bool {
            byte == 0x25 || byte == 0x5C || byte == 0x26 || byte == 0x2B
        }

        /// The character whose UTF-8 bytes start at `position`, if a valid one does.
        static func literal(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Decoded? {
            guard position < bytes.count else { return nil }
            let lead = bytes[position]
            if lead < 0x80 { return Decoded(scalar: UInt32(lead), end: position + 1) }
            return utf8Scalar(lead: lead, at: position + 1, step: 1) { bytes.indices.contains($0) ? bytes[$0] : nil }
        }

        /// The character an escape starting at `position` stands for, if one does.
        static func escaped(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Decoded? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "+"): return Decoded(scalar: 0x20, end: position + 1)
            case UInt8(ascii: "%"): return percent(at: position, in: bytes)
            case UInt8(ascii: "\\"): return json(at: position, in: bytes)
            case UInt8(ascii: "&"): return html(at: position, in: bytes)
            default: return nil
            }
        }

        /// `%XX` sequences forming one UTF-8 encoded character.
        static func percent(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Decoded? {
            /// The byte `%XX` at `index` encodes.
            func byte(_ index: Int) -> UInt8? {
                guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: "%"),
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return nil }
                return UInt8(high << 4 | low)
            }
            guard let lead = byte(position) else { return nil }
            if lead < 0x80 { return Decoded(scalar: UInt32(lead), end: position + 3) }
            return utf8Scalar(lead: lead, at: position + 3, step: 3, byte: byte)
        }

        /// A JSON string escape.
        static func json(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Decoded? {
            guard position + 1 < bytes.count else { return nil }
            let simple: UInt32? =
                switch bytes[position + 1] {
                case 0x22, 0x5C, 0x2F: UInt32(bytes[position + 1])
                case UInt8(ascii: "b"): 0x08
                case UInt8(ascii: "f"): 0x0C
                case UInt8(ascii: "n"): 0x0A
                case UInt8(ascii: "r"): 0x0D
                case UInt8(ascii: "t"): 0x09
                default: nil
                }
            if let simple { return Decoded(scalar: simple, end: position + 2) }
            guard let unit = utf16Escape(at: position, in: bytes) else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard let low = utf16Escape(at: position + 6, in: bytes), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Decoded(scalar: 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), end: position + 12)
            case 0xDC00...0xDFFF: return nil
            default: return Decoded(scalar: unit, end: position + 6)
            }
        }

        /// The code unit of a `\uXXXX` escape at `position`.
        private static func utf16Escape(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
            guard position + 5 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { return nil }
            var value: UInt32 = 0
            for index in (position + 2)..<(position + 6) {
                guard let digit = hexValue(bytes[index]) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }

        /// An HTML or XML character reference.
        static func html(at position: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Decoded? {
            var index = position + 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
                index += 1
                let hex = index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "x")
                if hex { index += 1 }
                var value: UInt32 = 0
                let digitsStart = index
                while index < bytes.count, index - digitsStart < 8 {
                    let digit: UInt8? = hex ? hexValue(bytes[index]) : (0x30...0x39).contains(bytes[index]) ? bytes[index] - 0x30 : nil
                    guard let digit else { break }
                    value = value * (hex ? 16 : 10) + UInt32(digit)
                    index += 1
                }
                guard index > digitsStart, index < bytes.count, bytes[index] == UInt8(ascii: ";"), value <= 0x10FFFF else { return nil }
                return Decoded(scalar: value, end: index + 1)
            }
            for (name, scalar) in namedReferences {
                let end = index + name.count
                guard end <= bytes.count else { continue }
                if zip(bytes[index..<end], name).allSatisfy({ $0 == $1 }) { return Decoded(scalar: scalar, end: end) }
            }
            return nil
        }

        /// Named references, with their `;`.
        private static let namedReferences: [([UInt8], UInt32)] = [
            (Array("amp;".utf8), 0x26), (Array("lt;".utf8), 0x3C), (Array("gt;".utf8), 0x3E),
            (Array("quot;".utf8), 0x22), (Array("apos;".utf8), 0x27),
        ]

        /// One multi-byte UTF-8 character from its lead byte and continuation bytes read by `byte` at
        /// `start`, `start + step`…
        private static func utf8Scalar(lead: UInt8, at start: Int, step: Int, byte: (Int) -> UInt8?) -> Decoded? {
            let (count, initial): (Int, UInt32) =
                switch lead {
                case 0xC2...0xDF: (1, UInt32(lead & 0x1F))
                case 0xE0...0xEF: (2, UInt32(lead & 0x0F))
                case 0xF0...0xF4: (3, UInt32(lead & 0x07))
                default: (0, 0)
                }
            guard count > 0 else { return nil }
            var value = initial
            var index = start
            for _ in 0..<count {
                guard let next = byte(index), next & 0xC0 == 0x80 else { return nil }
                value = value << 6 | UInt32(next & 0x3F)
                index += step
            }
            return Decoded(scalar: value, end: index)
        }

        /// The value of an ASCII hex digit, either case.
        private static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
    }
}
