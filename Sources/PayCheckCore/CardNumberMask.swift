/// The one rule for card numbers in anything PayCheck keeps or shows: the runner's reports and transcripts
/// (`Redactor`) and the mock's request journal apply it alike.
package enum CardNumberMask {
    /// Masks card numbers (Luhn-valid, 13–19 digits), keeping the last four digits.
    ///
    /// A number is a run of ASCII digits, or groups of digits joined by single spaces or by single dashes
    /// (`4110 7600 0000 0081`, `4110-7600-0000-0081`, one separator per number); separators stay. In a run of
    /// groups the leftmost, longest sequence of whole groups that is a card number is masked, then the rest of
    /// the run is searched again, so a number written next to other numbers is still found. Works on UTF-8
    /// bytes: ASCII digits, spaces and dashes never occur inside a multi-byte scalar.
    package static func apply(_ text: String) -> String {
        guard text.utf8.count >= 13 else { return text }
        var text = text
        let masked: String? = text.withUTF8 { bytes in
            var masks: [Int] = []
            var index = 0
            while index < bytes.count {
                guard isDigit(bytes[index]) else {
                    index += 1
                    continue
                }
                // A card number stands apart: digits glued to a letter (or `_`) belong to a token (a hex digest such as a
                // notification signature, an id), never to a card number.
                // (`\n4110…` in an escaped transcript is an escape, not glue.)
                let gluedBefore = index > 0 && isLetter(bytes[index - 1]) && !(index > 1 && bytes[index - 2] == 0x5C)
                var end = index
                while end < bytes.count, isDigit(bytes[end]) { end += 1 }
                let joined = end + 1 < bytes.count && (bytes[end] == 0x20 || bytes[end] == 0x2D) && isDigit(bytes[end + 1])
                if !joined {
                    // The common case, one plain run: no allocation unless it is a card number.
                    let gluedAfter = end < bytes.count && isLetter(bytes[end])
                    if !gluedBefore, !gluedAfter, (13...19).contains(end - index), luhn(Array(bytes[index..<end])) {
                        masks += index..<(end - 4)
                    }
                    index = end
                    continue
                }
                let groups = digitGroups(from: index, in: bytes)
                let last = groups[groups.count - 1].upperBound
                if !gluedBefore, !(last < bytes.count && isLetter(bytes[last])) { masks += cardDigitsToMask(groups, in: bytes) }
                index = last
            }
            guard !masks.isEmpty else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + masks.count * 2)
            var cursor = 0
            for position in masks {
                out.append(contentsOf: bytes[cursor..<position])
                out.append(contentsOf: cardMaskBytes)
                cursor = position + 1
            }
            out.append(contentsOf: bytes[cursor...])
            return String(decoding: out, as: UTF8.self)
        }
        return masked ?? text
    }

    /// Whether a byte is an ASCII digit.
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Whether a byte is an ASCII letter or `_` (what glues digits into a token, as in a regex's `\w`).
    private static func isLetter(_ byte: UInt8) -> Bool { byte == 0x5F || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) }

    /// The digit groups of the run starting at `start`: maximal digit runs joined by one separator kind.
    private static func digitGroups(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var separator: UInt8?
        var position = start
        while true {
            var end = position
            while end < bytes.count, isDigit(bytes[end]) { end += 1 }
            groups.append(position..<end)
            guard end + 1 < bytes.count, isDigit(bytes[end + 1]) else { break }
            let next = bytes[end]
            guard next == 0x20 || next == 0x2D, separator == nil || separator == next else { break }
            separator = next
            position = end + 1
        }
        return groups
    }

    /// The byte positions of digits to mask in a run of groups: every card number's digits but its last four.
    private static func cardDigitsToMask(_ groups: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var positions: [Int] = []
        var first = 0
        while first < groups.count {
            // The longest sequence of whole groups from `first` with 13–19 digits that passes Luhn.
            var digits = 0
            var found: Int?
            var last = first
            while last < groups.count, digits + groups[last].count <= 19 {
                digits += groups[last].count
                if digits >= 13, luhn(groups[first...last].flatMap { $0 }.map { bytes[$0] }) { found = last }
                last += 1
            }
            if let found {
                positions += groups[first...found].flatMap { $0 }.dropLast(4)
                first = found + 1
            } else {
                first += 1
            }
        }
        return positions
    }

    /// "•" as UTF-8 bytes.
    private static let cardMaskBytes = Array("•".utf8)

    /// The Luhn check of ASCII digits.
    static func luhn(_ digits: [UInt8]) -> Bool {
        var sum = 0
        for (i, byte) in digits.reversed().enumerated() {
            var d = Int(byte) - 0x30
            if i % 2 == 1 { d *= 2; if d > 9 { d -= 9 } }
            sum += d
        }
        return sum % 10 == 0
    }

    /// The Luhn check of a digit string (`false` when a character is no digit).
    package static func luhn(_ digits: String) -> Bool {
        var sum = 0
        for (i, c) in digits.reversed().enumerated() {
            guard var d = c.wholeNumberValue else { return false }
            if i % 2 == 1 { d *= 2; if d > 9 { d -= 9 } }
            sum += d
        }
        return sum % 10 == 0
    }
}
