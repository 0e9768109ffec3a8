import Foundation
import PayCheckCore

/// Locale-independent formatting of times, durations and counts shared by the reporters.
enum ReportFormat {
    /// Whole milliseconds in `seconds`, never negative (NaN and infinities count as zero).
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min((seconds * 1000).rounded(), Double(Int.max / 2)))
    }

    /// Seconds with exactly three decimals and a dot, e.g. `1.234` (the JUnit `time` form).
    static func seconds3(_ seconds: Double) -> String {
        let ms = milliseconds(seconds)
        return "\(ms / 1000).\(pad(ms % 1000, 3))"
    }

    /// Seconds with two decimals, e.g. `1.23 s`.
    static func seconds2(_ seconds: Double) -> String {
        let cs = (milliseconds(seconds) + 5) / 10
        return "\(cs / 100).\(pad(cs % 100, 2)) s"
    }

    /// A short human duration: `12 ms` under a second, `1.23 s` from one second on.
    static func human(_ seconds: Double) -> String {
        let ms = milliseconds(seconds)
        return ms < 1000 ? "\(ms) ms" : seconds2(seconds)
    }

    /// Seconds rounded to milliseconds, for JSON numbers.
    static func roundedSeconds(_ seconds: Double) -> Double { Double(milliseconds(seconds)) / 1000 }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC with no offset: the JUnit `timestamp` form.
    static func timestamp(_ date: Date) -> String {
        String(ISOTimestamp.format(date, fraction: .never).dropLast())
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-01-15T10:00:00.250Z`.
    static func iso8601(_ date: Date) -> String {
        ISOTimestamp.format(date, fraction: .always)
    }

    /// `1 case`, `2 cases`.
    static func plural(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// `value` in decimal, left-padded with zeros to `width` digits.
    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
