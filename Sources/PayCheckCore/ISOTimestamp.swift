import Foundation

/// ISO 8601 date-times in UTC, written `2026-01-15T10:00:00Z` or `2026-01-15T10:00:00.250Z`.
///
/// One helper for the mock clock, the control API, templates and reports. Formatting is plain calendar
/// arithmetic (proleptic Gregorian, milliseconds rounded), so it is the same on every platform.
public enum ISOTimestamp {
    /// When to write the millisecond part.
    public enum Fraction: Sendable {
        /// Never: whole seconds (of the date rounded to milliseconds).
        case never
        /// Only when the date has a sub-second part (after rounding to milliseconds).
        case whenSubSecond
        /// Always three digits, e.g. `.000`.
        case always
    }

    /// Whole-second parse style (`Z` or `±hh:mm`).
    private static let secondsStyle = Date.ISO8601FormatStyle()
    /// Fractional-second parse style (`Z` or `±hh:mm`).
    private static let fractionStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Renders `date` in UTC; by default with milliseconds only when the date has a sub-second part.
    public static func format(_ date: Date, fraction: Fraction = .whenSubSecond) -> String {
        let interval = date.timeIntervalSince1970
        let totalMilliseconds = (interval * 1000).rounded()
        // Dates beyond ±10^14 s (3 million years) are not calendar dates anyone writes; clamp instead of trapping.
        let clamped = totalMilliseconds.isFinite ? min(max(totalMilliseconds, -1e17), 1e17) : 0
        let milliseconds = Int(clamped)
        let seconds = Self.floorDiv(milliseconds, 1000)
        let millisecondPart = milliseconds - seconds * 1000
        let days = Self.floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        var text = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T"
            + "\(Self.pad(secondOfDay / 3600, 2)):\(Self.pad(secondOfDay % 3600 / 60, 2)):\(Self.pad(secondOfDay % 60, 2))"
        if fraction == .always || (fraction == .whenSubSecond && millisecondPart != 0) {
            text += "." + Self.pad(millisecondPart, 3)
        }
        return text + "Z"
    }

    /// Parses an ISO 8601 date-time with a `Z` or `±hh:mm` offset and optional fractional seconds.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Self.secondsStyle.parse(trimmed) { return date }
        if let date = try? Self.fractionStyle.parse(trimmed) { return date }
        return nil
    }

    /// Year, month and day of a count of days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = Self.floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Division rounding toward negative infinity.
    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// `value` with leading zeros up to `width` digits (a minus sign goes first).
    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}
