import Foundation

/// ISO 8601 rendering and parsing of mock-clock times.
enum MockTimestamp {
    /// Whole-second UTC style, e.g. `2026-01-15T10:00:00Z`.
    private static let seconds = Date.ISO8601FormatStyle()
    /// Millisecond UTC style, e.g. `2026-01-15T10:00:00.250Z`.
    private static let milliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Renders `date` in UTC, with milliseconds only when the date has a sub-second part.
    static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let wholeSecond = (interval * 1000).rounded().truncatingRemainder(dividingBy: 1000) == 0
        return wholeSecond ? self.seconds.format(date) : self.milliseconds.format(date)
    }

    /// Parses an ISO 8601 date-time with a `Z` or `±hh:mm` offset and optional fractional seconds.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? self.seconds.parse(trimmed) {
            return date
        }
        if let date = try? self.milliseconds.parse(trimmed) {
            return date
        }
        return nil
    }
}
