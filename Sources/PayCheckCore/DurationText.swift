/// Parses durations written in suites, flags and mock control requests: `500ms`, `2s`, `31m`, `1h`, `2d`,
/// `+31m`, `-5m`, or a plain number of seconds.
///
/// Every duration is bounded by ``maximumSeconds`` (ten years): larger or non-finite amounts are an error
/// with a message, so no caller ever converts an absurd `Double` to `Int`, `UInt64` or `Duration` and traps.
package enum DurationText {
    /// The longest accepted duration: 3650 days (about ten years).
    package static let maximumSeconds: Double = 3650 * 86_400

    /// The accepted units, longest suffix first, with their length in seconds.
    private static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400),
    ]

    /// Seconds, or `nil` when the text is not a duration or is out of bounds.
    package static func seconds(_ text: String) -> Double? {
        try? parse(text)
    }

    /// Parses a signed duration into seconds.
    ///
    /// The number is decimal digits with an optional fraction and an optional exponent (`1.5h`, `2e3ms`);
    /// spaces are allowed around it. - Throws: ``DurationError`` when the text is not a duration or its
    /// magnitude exceeds ``maximumSeconds``.
    package static func parse(_ text: String) throws(DurationError) -> Double {
        var body = Substring(text.trimmingWhitespace())
        var sign = 1.0
        if body.hasPrefix("+") {
            body.removeFirst()
        } else if body.hasPrefix("-") {
            body.removeFirst()
            sign = -1
        }
        var factor = 1.0
        for unit in units where body.hasSuffix(unit.suffix) {
            body = body.dropLast(unit.suffix.count)
            factor = unit.seconds
            break
        }
        let number = String(body).trimmingWhitespace()
        guard isDecimal(number), let amount = Double(number) else {
            throw DurationError(text: text, problem: .notADuration)
        }
        return try checked(sign * amount * factor, text: text)
    }

    /// A duration above zero: a time limit, an interval.
    /// - Throws: ``DurationError`` for text that is no duration, or one that is zero or negative.
    package static func parsePositive(_ text: String) throws(DurationError) -> Double {
        let seconds = try parse(text)
        guard seconds > 0 else { throw DurationError(text: text, problem: .notADuration) }
        return seconds
    }

    /// `seconds` itself when it is finite and within ±``maximumSeconds``.
    /// - Parameter text: how the amount was written, quoted in the error.
    /// - Throws: ``DurationError`` otherwise.
    package static func checked(_ seconds: Double, text: String) throws(DurationError) -> Double {
        guard seconds.isFinite, abs(seconds) <= maximumSeconds else {
            throw DurationError(text: text, problem: .outOfBounds)
        }
        return seconds
    }

    /// Whole nanoseconds in `seconds`, clamped to `0...maximumSeconds` (NaN counts as zero); never traps.
    package static func nanoseconds(_ seconds: Double) -> Int64 {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), maximumSeconds)
        return Int64(bounded * 1_000_000_000)
    }

    /// Whether `text` is `digits[.digits][e[±]digits]` (also `.5` and `5.`), with no sign, hex or `inf`.
    private static func isDecimal(_ text: String) -> Bool {
        var mantissaDigits = 0
        var sawDot = false
        var iterator = text.utf8.makeIterator()
        var next = iterator.next()
        while let byte = next, byte == UInt8(ascii: ".") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
            if byte == UInt8(ascii: ".") {
                if sawDot { return false }
                sawDot = true
            } else {
                mantissaDigits += 1
            }
            next = iterator.next()
        }
        guard mantissaDigits > 0 else { return false }
        guard let marker = next else { return true }
        guard marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") else { return false }
        next = iterator.next()
        if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { next = iterator.next() }
        var exponentDigits = 0
        while let byte = next {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
            exponentDigits += 1
            next = iterator.next()
        }
        return exponentDigits > 0
    }

    /// Seconds as a short duration: `500ms`, `2s`, `1.5s`.
    package static func format(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int(seconds * 1000))ms" }
        if seconds.rounded() == seconds { return "\(Int(seconds))s" }
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)s"
    }
}
