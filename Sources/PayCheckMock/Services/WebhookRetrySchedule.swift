import PayCheckCore

/// When a webhook is (re)sent: the first attempt at once, then one retry per offset, each measured on the mock
/// clock from the first attempt, as long as the receiver has not answered 2xx.
///
/// Offsets are from the first attempt, not from the previous one, because that is how providers document them
/// (e.g. Yuno, providers.md §3: "+5 min, +50 min, +6 h … after the first try"). Advancing the mock clock past
/// several offsets at once sends every retry that became due, in order, before the clock route returns.
package struct WebhookRetrySchedule: Sendable, Equatable, CustomStringConvertible {
    /// Exactly one attempt, never retried.
    package static let once = WebhookRetrySchedule(retriesAfter: [])

    /// The retries' offsets from the first attempt, ascending.
    let retryOffsets: [Duration]

    /// Creates a schedule with one retry per offset (negative offsets count as zero; the order does not matter).
    package init(retriesAfter offsets: [Duration]) {
        self.retryOffsets = offsets.map { max($0, .zero) }.sorted()
    }

    /// Parses retry offsets written as durations (`"90s"`, `"5m"`, `"1h"`, a plain number of seconds); `nil` when
    /// one is not a non-negative duration.
    package init?(parsing texts: [String]) {
        var offsets: [Duration] = []
        for text in texts {
            guard let seconds = DurationText.seconds(text), seconds >= 0 else { return nil }
            offsets.append(.milliseconds(Int64((seconds * 1000).rounded())))
        }
        self.init(retriesAfter: offsets)
    }

    /// The retry offsets as duration texts in seconds, e.g. `["60s", "300s"]`, readable by ``init(parsing:)``.
    var retryOffsetTexts: [String] {
        self.retryOffsets.map { "\(Value.format($0.timeInterval))s" }
    }

    /// How many attempts at most: the first plus one per retry.
    package var maximumAttempts: Int {
        1 + self.retryOffsets.count
    }

    /// The offset of attempt `number` (1-based) from the first attempt; `nil` past the last attempt.
    package func offset(ofAttempt number: Int) -> Duration? {
        if number == 1 { return .zero }
        let index = number - 2
        guard index >= 0, index < self.retryOffsets.count else { return nil }
        return self.retryOffsets[index]
    }

    /// The offsets of every attempt, e.g. `[0s, 60s, 300s]`.
    package var description: String {
        "[" + (["0s"] + self.retryOffsetTexts).joined(separator: ", ") + "]"
    }
}
