/// Parses durations written in suites and flags: `500ms`, `2s`, `31m`, `1h`, `2d`, `+31m`, `-5m`, or a
/// plain number of seconds.
public enum DurationText {
    /// Seconds, or `nil` when the text is not a duration.
    public static func seconds(_ text: String) -> Double? {
        var s = text.trimmingWhitespace()
        var sign = 1.0
        if s.hasPrefix("+") { s.removeFirst() } else if s.hasPrefix("-") { s.removeFirst(); sign = -1 }
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        for (unit, factor) in units where s.hasSuffix(unit) {
            let number = s.dropLast(unit.count)
            guard !number.isEmpty, let value = Double(number), value.isFinite, value >= 0 else { return nil }
            return sign * value * factor
        }
        guard let value = Double(s), value.isFinite, value >= 0 else { return nil }
        return sign * value
    }
}
