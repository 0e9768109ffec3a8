import Foundation
import PayCheckCore
import Testing

/// Texts and their offset in seconds from 2026-01-15T10:00:00Z, or `nil` when they must not parse.
private let parseCases: [(String, Double?)] = [
    ("2026-01-15T10:00:00Z", 0), ("2026-01-15T10:00:00.250Z", 0.25),
    ("2026-01-15T12:00:00+02:00", 0), ("2026-01-15T05:00:00-05:00", 0), ("2026-01-15T15:30:00+0530", 0),
    ("2026-01-15 10:00:00,5z", 0.5), ("tomorrow", nil), ("2026-01-15", nil), (" 2026-01-15T10:00:00Z", nil),
    ("2026-01-15T10:00:00", nil), ("2026-02-29T10:00:00Z", nil),
]

@Suite("ISO 8601 timestamps")
struct ISOTimestampTests {
    /// 2026-01-15T10:00:00Z.
    let base = Date(timeIntervalSince1970: 1_768_471_200)

    @Test("UTC with milliseconds only when there is a sub-second part")
    func format() {
        #expect(ISOTimestamp.format(base) == "2026-01-15T10:00:00Z")
        #expect(ISOTimestamp.format(base.addingTimeInterval(0.25)) == "2026-01-15T10:00:00.250Z")
        #expect(ISOTimestamp.format(base.addingTimeInterval(0.0004)) == "2026-01-15T10:00:00Z")
        #expect(ISOTimestamp.format(base.addingTimeInterval(0.25), fraction: .never) == "2026-01-15T10:00:00Z")
        #expect(ISOTimestamp.format(base, fraction: .always) == "2026-01-15T10:00:00.000Z")
        #expect(ISOTimestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ISOTimestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(ISOTimestamp.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test("far-off and non-finite dates never trap")
    func extremes() {
        _ = ISOTimestamp.format(Date(timeIntervalSince1970: 1e300))
        _ = ISOTimestamp.format(Date(timeIntervalSince1970: -.infinity))
        _ = ISOTimestamp.format(Date(timeIntervalSince1970: .nan))
    }

    @Test("parses Z, offsets and fractions", arguments: parseCases)
    func parse(_ text: String, _ offset: Double?) {
        #expect(ISOTimestamp.parse(text) == offset.map { base.addingTimeInterval($0) })
    }

    @Test("with a time zone: PHP date('c') shape, +00:00 for UTC, seconds truncated")
    func zoned() throws {
        let bogota = try #require(TimeZone(secondsFromGMT: -5 * 3600))
        let utc = try #require(TimeZone(secondsFromGMT: 0))
        #expect(ISOTimestamp.format(base.addingTimeInterval(0.9), timeZone: bogota) == "2026-01-15T05:00:00-05:00")
        #expect(ISOTimestamp.format(base, timeZone: utc) == "2026-01-15T10:00:00+00:00")
        #expect(ISOTimestamp.parse("2026-01-15T05:00:00", timeZoneWhenOffsetMissing: bogota) == base)
    }

    @Test("format and parse round-trip")
    func roundTrip() {
        for interval in [0.0, 0.5, 0.125, 59.999, 86_399.001] {
            let date = base.addingTimeInterval(interval)
            let parsed = ISOTimestamp.parse(ISOTimestamp.format(date))
            #expect(parsed.map { abs($0.timeIntervalSince(date)) < 0.0005 } == true, "\(interval)")
        }
    }
}
