import Foundation

/// Formats and parses the `auth.seed` timestamp of the PlacetoPay Checkout API.
///
/// The seed is "the current date-time, ISO 8601" (providers.md §1.2). Real clients send several shapes, all of
/// which `parse(_:)` accepts:
/// - PHP `date('c')` (the `dnetix/redirection` SDK and the docs' PHP sample): `2026-01-15T10:00:00-05:00`;
/// - Python `datetime.now(timezone.utc).isoformat()` (PyPI `checkout-p2p` 1.0.0):
///   `2024-10-22T04:39:18.810868+00:00`;
/// - JavaScript `new Date().toISOString()` (the docs' JS sample): `2023-06-21T14:56:06.123Z`.
///
/// Formatting and parsing are plain calendar arithmetic on the proleptic Gregorian calendar, with no
/// `DateFormatter`, so they behave the same on every platform and never read the clock.
public enum PlacetoPaySeed {
    /// Formats `date` like PHP `date('c')`: `yyyy-MM-dd'T'HH:mm:ss±hh:mm` in `timeZone`, seconds truncated.
    ///
    /// A zero offset is written `+00:00` (never `Z`), as PHP does.
    public static func format(_ date: Date, timeZone: TimeZone) -> String {
        let wholeSeconds = Int(date.timeIntervalSince1970.rounded(.down))
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

    /// Parses an ISO 8601 date-time with a UTC offset; returns `nil` when `text` is not one.
    ///
    /// Accepted: `YYYY-MM-DD`, a `T` (or `t` or a space), `hh:mm:ss`, an optional fraction of 1 to 9 digits after
    /// `.` or `,`, then an offset `Z`, `z`, `±hh:mm`, `±hhmm` or `±hh`. Fields are range-checked (no 30 February,
    /// no hour 24, no leap second). When the offset is missing the text is rejected unless
    /// `timeZoneWhenOffsetMissing` is given, in which case the local time is read in that zone.
    public static func parse(_ text: String, timeZoneWhenOffsetMissing: TimeZone? = nil) -> Date? {
        var scanner = SeedCursor(Array(text.utf8))
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

    /// A cursor over ASCII bytes for the seed grammar.
    private struct SeedCursor {
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
