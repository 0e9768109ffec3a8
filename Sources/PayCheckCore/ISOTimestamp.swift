package import Foundation

/// ISO 8601 date-times in UTC, written `2026-01-15T10:00:00Z` or `2026-01-15T10:00:00.250Z`.
///
/// One helper for the mock clock, the control API, templates, reports and provider timestamps (PlacetoPay's
/// seed and status dates, written with an offset). Formatting and parsing are plain calendar arithmetic
/// (proleptic Gregorian), so they are the same on every platform and never read the clock.
package enum ISOTimestamp {
    /// When to write the millisecond part.
    package enum Fraction: Sendable {
        /// Never: whole seconds (of the date rounded to milliseconds).
        case never
        /// Only when the date has a sub-second part (after rounding to milliseconds).
        case whenSubSecond
        /// Always three digits, e.g. `.000`.
        case always
    }

    /// Renders `date` in UTC; by default with milliseconds only when the date has a sub-second part.
    package static func format(_ date: Date, fraction: Fraction = .whenSubSecond) -> String {
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
        var text =
            "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T"
            + "\(Self.pad(secondOfDay / 3600, 2)):\(Self.pad(secondOfDay % 3600 / 60, 2)):\(Self.pad(secondOfDay % 60, 2))"
        if fraction == .always || (fraction == .whenSubSecond && millisecondPart != 0) {
            text += "." + Self.pad(millisecondPart, 3)
        }
        return text + "Z"
    }

    /// Renders `date` with the offset of `timeZone` at that instant, `yyyy-MM-dd'T'HH:mm:ss±hh:mm`, seconds
    /// truncated; a zero offset is written `+00:00`, never `Z` (the shape of PHP `date('c')`).
    package static func format(_ date: Date, timeZone: TimeZone) -> String {
        let interval = date.timeIntervalSince1970
        let wholeSeconds = interval.isFinite ? Int(min(max(interval.rounded(.down), -1e14), 1e14)) : 0
        let offset = timeZone.secondsFromGMT(for: date)
        let local = wholeSeconds + offset
        let days = floorDiv(local, 86_400)
        let secondOfDay = local - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let sign = offset < 0 ? "-" : "+"
        let offsetMinutes = abs(offset) / 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2))"
            + "\(sign)\(pad(offsetMinutes / 60, 2)):\(pad(offsetMinutes % 60, 2))"
    }

    /// Parses an ISO 8601 date-time with an offset; `nil` when `text` is not one.
    ///
    /// Accepted: `YYYY-MM-DD`, a `T` (or `t` or a space), `hh:mm:ss`, an optional fraction of 1 to 9 digits after
    /// `.` or `,`, then an offset `Z`, `z`, `±hh:mm`, `±hhmm` or `±hh`. Fields are range-checked (no 30 February,
    /// no hour 24, no leap second). When the offset is missing the text is rejected unless
    /// `timeZoneWhenOffsetMissing` is given, in which case the local time is read in that zone. Plain calendar
    /// arithmetic: no `DateFormatter`, the same on every platform.
    package static func parse(_ text: String, timeZoneWhenOffsetMissing: TimeZone? = nil) -> Date? {
        var scanner = Cursor(Array(text.utf8))
        guard let year = scanner.digits(exactly: 4), scanner.take("-"),
            let month = scanner.digits(exactly: 2), scanner.take("-"),
            let day = scanner.digits(exactly: 2), scanner.take("T") || scanner.take("t") || scanner.take(" "),
            let hour = scanner.digits(exactly: 2), scanner.take(":"),
            let minute = scanner.digits(exactly: 2), scanner.take(":"),
            let second = scanner.digits(exactly: 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }

        var fraction = 0.0
        if scanner.take(".") || scanner.take(",") {
            guard let (value, count) = scanner.fraction(), (1...9).contains(count) else { return nil }
            fraction = value
        }

        let offsetSeconds: Int
        if scanner.isAtEnd {
            guard let zone = timeZoneWhenOffsetMissing else { return nil }
            let naive = Double(secondsSinceEpoch(year, month, day, hour, minute, second)) + fraction
            offsetSeconds = zone.secondsFromGMT(for: Date(timeIntervalSince1970: naive))
        } else if scanner.take("Z") || scanner.take("z") {
            offsetSeconds = 0
        } else {
            let sign: Int
            if scanner.take("+") {
                sign = 1
            } else if scanner.take("-") {
                sign = -1
            } else {
                return nil
            }
            guard let offsetHours = scanner.digits(exactly: 2), offsetHours <= 23 else { return nil }
            var offsetMinutes = 0
            if !scanner.isAtEnd {
                _ = scanner.take(":")
                guard let minutes = scanner.digits(exactly: 2), minutes <= 59 else { return nil }
                offsetMinutes = minutes
            }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard scanner.isAtEnd else { return nil }

        let utc = secondsSinceEpoch(year, month, day, hour, minute, second) - offsetSeconds
        return Date(timeIntervalSince1970: Double(utc) + fraction)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian; H. Hinnant's days-from-civil algorithms)

    /// Seconds since 1970-01-01T00:00:00 for a wall-clock time read as UTC.
    private static func secondsSinceEpoch(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Int {
        days(fromCivil: y, m, d) * 86_400 + h * 3600 + mi * 60 + s
    }

    /// Days since 1970-01-01 of the given civil date.
    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day count since 1970-01-01.
    private static func civil(fromDays count: Int) -> (year: Int, month: Int, day: Int) {
        let z = count + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in `month` of `year`.
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    /// Integer division rounding toward negative infinity.
    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// Zero-pads a non-negative `value` to `width` digits (negative years keep their sign).
    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

}
