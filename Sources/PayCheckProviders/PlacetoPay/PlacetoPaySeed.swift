package import Foundation
import PayCheckCore

/// Formats and parses the `auth.seed` timestamp of the PlacetoPay Checkout API.
///
/// The seed is "the current date-time, ISO 8601" (providers.md §1.2). Real clients send several shapes, all of
/// which `parse(_:)` accepts:
/// - PHP `date('c')` (the `dnetix/redirection` SDK and the docs' PHP sample): `2026-01-15T10:00:00-05:00`;
/// - Python `datetime.now(timezone.utc).isoformat()` (PyPI `checkout-p2p` 1.0.0):
///   `2024-10-22T04:39:18.810868+00:00`;
/// - JavaScript `new Date().toISOString()` (the docs' JS sample): `2023-06-21T14:56:06.123Z`.
///
/// Both delegate to Core's ``ISOTimestamp`` (plain calendar arithmetic, no `DateFormatter`, the same on every
/// platform, never reading the clock).
package enum PlacetoPaySeed {
    /// Formats `date` like PHP `date('c')`: `yyyy-MM-dd'T'HH:mm:ss±hh:mm` in `timeZone`, seconds truncated.
    ///
    /// A zero offset is written `+00:00` (never `Z`), as PHP does.
    package static func format(_ date: Date, timeZone: TimeZone) -> String {
        ISOTimestamp.format(date, timeZone: timeZone)
    }

    /// Parses an ISO 8601 date-time with a UTC offset; returns `nil` when `text` is not one.
    ///
    /// Accepted: `YYYY-MM-DD`, a `T` (or `t` or a space), `hh:mm:ss`, an optional fraction of 1 to 9 digits after
    /// `.` or `,`, then an offset `Z`, `z`, `±hh:mm`, `±hhmm` or `±hh`. When the offset is missing the text is
    /// rejected unless `timeZoneWhenOffsetMissing` is given, in which case the local time is read in that zone.
    package static func parse(_ text: String, timeZoneWhenOffsetMissing: TimeZone? = nil) -> Date? {
        ISOTimestamp.parse(text, timeZoneWhenOffsetMissing: timeZoneWhenOffsetMissing)
    }
}
