import Foundation
import PayCheckProviders
import Testing

/// Seed formatting (like PHP `date('c')`) and parsing of every shape real clients send.
@Suite("PlacetoPay seed")
struct PlacetoPaySeedTests {
    /// 2026-01-15T15:00:00Z.
    static let instant = Date(timeIntervalSince1970: 1_768_489_200)

    @Test("formats a negative offset like PHP date('c')")
    func negativeOffset() throws {
        let bogota = try #require(TimeZone(secondsFromGMT: -5 * 3600))
        #expect(PlacetoPayAuth.seed(for: Self.instant, timeZone: bogota) == "2026-01-15T10:00:00-05:00")
    }

    @Test(
        "formats named zones, UTC as +00:00, half-hour offsets, and truncates fractions",
        arguments: [
            ("America/Bogota", 0.0, "2026-01-15T10:00:00-05:00"),
            ("UTC", 0.0, "2026-01-15T15:00:00+00:00"),
            ("Asia/Kolkata", 0.0, "2026-01-15T20:30:00+05:30"),
            ("America/St_Johns", 0.0, "2026-01-15T11:30:00-03:30"),
            ("UTC", 0.999, "2026-01-15T15:00:00+00:00"),
            ("America/Bogota", -54_000.0, "2026-01-14T19:00:00-05:00"),
        ])
    func formatting(zone: String, shift: Double, expected: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let date = Self.instant.addingTimeInterval(shift)
        #expect(PlacetoPaySeed.format(date, timeZone: timeZone) == expected)
    }

    @Test("formats dates before 1970 and leap days")
    func calendarEdges() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(PlacetoPaySeed.format(Date(timeIntervalSince1970: -1), timeZone: utc) == "1969-12-31T23:59:59+00:00")
        // 2024-02-29T12:00:00Z.
        #expect(
            PlacetoPaySeed.format(Date(timeIntervalSince1970: 1_709_208_000), timeZone: utc)
                == "2024-02-29T12:00:00+00:00")
    }

    @Test(
        "parses the shapes sent by PHP, Python and JavaScript clients",
        arguments: [
            ("2026-01-15T10:00:00-05:00", 0.0),
            ("2026-01-15T15:00:00+00:00", 0.0),
            ("2026-01-15T15:00:00Z", 0.0),
            ("2026-01-15T15:00:00.123Z", 0.123),
            ("2026-01-15T15:00:00.810868+00:00", 0.810868),
            ("2026-01-15T20:30:00+0530", 0.0),
            ("2026-01-15T10:00:00-05", 0.0),
            ("2026-01-15 15:00:00z", 0.0),
        ])
    func parsing(text: String, fraction: Double) throws {
        let date = try #require(PlacetoPaySeed.parse(text))
        #expect(abs(date.timeIntervalSince(Self.instant) - fraction) < 1e-6)
    }

    @Test(
        "rejects text that is not an ISO 8601 date-time with offset",
        arguments: [
            "", "now", "2026-01-15", "2026-01-15T10:00:00", "2026-01-15T10:00-05:00", "2026-13-01T00:00:00Z",
            "2026-02-29T00:00:00Z", "2026-01-15T24:00:00Z", "2026-01-15T10:00:60Z", "2026-01-15T10:00:00.Z",
            "2026-01-15T10:00:00+5:00", "2026-01-15T10:00:00-05:00x", "1768489200", "2026/01/15T10:00:00Z",
        ])
    func rejects(text: String) {
        #expect(PlacetoPaySeed.parse(text) == nil)
    }

    @Test("reads an offset-less seed in the given zone only when asked to")
    func missingOffset() throws {
        let bogota = try #require(TimeZone(identifier: "America/Bogota"))
        #expect(PlacetoPaySeed.parse("2026-01-15T10:00:00") == nil)
        #expect(PlacetoPaySeed.parse("2026-01-15T10:00:00", timeZoneWhenOffsetMissing: bogota) == Self.instant)
    }

    @Test("format and parse round-trip")
    func roundTrip() throws {
        let zone = try #require(TimeZone(identifier: "America/Santiago"))
        for step in stride(from: -600_000_000.0, through: 4_000_000_000.0, by: 77_777_777.0) {
            let date = Date(timeIntervalSince1970: step.rounded(.down))
            let text = PlacetoPaySeed.format(date, timeZone: zone)
            #expect(PlacetoPaySeed.parse(text) == date, "\(text)")
        }
    }
}
