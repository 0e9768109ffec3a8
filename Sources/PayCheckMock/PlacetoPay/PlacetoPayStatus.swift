import Foundation
import PayCheckCore
import PayCheckProviders

/// The `status` object of PlacetoPay responses, sessions and transactions: `{status, reason, message, date}`
/// (providers.md §1.3).
///
/// `reason` is always a string here; only the 401 authentication envelope uses a number (see
/// ``PlacetoPayFailure``).
struct PlacetoPayStatus: Sendable, Equatable {
    /// `status.status`, e.g. `PENDING`, `APPROVED`, `OK`.
    var status: PlacetoPayStatusName
    /// `status.reason`, e.g. `PT`, `00`, `?C`.
    var reason: String
    /// The human-readable message.
    var message: String
    /// When this status was reached (mock time).
    var date: Date

    /// The zone of every date the mock writes: Bogotá, `-05:00`, as in the docs' examples (providers.md §1.2).
    static let timeZone = TimeZone(secondsFromGMT: -5 * 3600) ?? .gmt

    /// Formats `date` like PlacetoPay does: ISO 8601 with offset, whole seconds, e.g. `2026-01-15T05:00:00-05:00`.
    static func format(_ date: Date) -> String {
        PlacetoPaySeed.format(date, timeZone: self.timeZone)
    }

    /// `date` as it is sent; the exact text that enters a notification signature (providers.md §1.9).
    var dateText: String { Self.format(self.date) }

    /// The object as JSON, with the message in English.
    var json: Value { self.json(locale: nil) }

    /// The object as JSON, with the message in the language of `locale` (localization page; see
    /// ``PlacetoPayMessages``).
    func json(locale: String?) -> Value {
        .object([
            "status": .string(self.status.rawValue),
            "reason": .string(self.reason),
            "message": .string(PlacetoPayMessages.localized(self.message, locale: locale)),
            "date": .string(self.dateText),
        ])
    }

    /// Whether a session in this status is final: `APPROVED`, `REJECTED` or `PARTIAL_EXPIRED` (providers.md §1.5).
    var isFinal: Bool {
        [Name.approved, Name.rejected, Name.partialExpired].contains(self.status)
    }

    /// The `status.status` values (providers.md §1.3), shared with the adapter's table.
    typealias Name = PlacetoPayStatusName
}
