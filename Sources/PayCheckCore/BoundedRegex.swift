package import Foundation

/// Regular-expression matching that cannot run away: a pattern with catastrophic backtracking (`^(a+)+$` against a
/// long near-match) is stopped after a time budget, and a cancelled task (`--run-timeout`, SIGINT) stops it at once.
/// Foundation reports progress during a long match (`.reportProgress`), which is where both checks happen.
package enum BoundedRegex {
    /// Seconds one match may take.
    package static let budget: Double = 1

    /// Why a match was stopped.
    package struct Stopped: Error, Sendable, CustomStringConvertible {
        /// The pattern.
        package var pattern: String
        /// How long the text was.
        package var length: Int
        /// Whether it stopped because the task was cancelled rather than for time.
        package var cancelled: Bool

        /// The message.
        package var description: String {
            cancelled
                ? "matching '\(pattern)' was interrupted"
                : "matching '\(pattern)' against a \(length)-character value took over \(Value.format(BoundedRegex.budget))s "
                    + "(catastrophic backtracking?); simplify the pattern, e.g. avoid nested quantifiers like (a+)+"
        }
    }

    /// The first match of `regex` in `text`, or `nil`; throws ``Stopped`` past the budget or on cancellation.
    package static func firstMatch(_ regex: NSRegularExpression, in text: String, budget: Double = budget) throws(Stopped) -> NSTextCheckingResult? {
        let start = DispatchTime.now().uptimeNanoseconds
        let limit = UInt64(max(0, min(budget, 3600)) * 1e9)
        var found: NSTextCheckingResult?
        var stopped: Stopped?
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) { match, _, stop in
            if let match {
                found = match
                stop.pointee = true
            } else if Task.isCancelled {
                stopped = Stopped(pattern: regex.pattern, length: text.count, cancelled: true)
                stop.pointee = true
            } else if DispatchTime.now().uptimeNanoseconds - start > limit {
                stopped = Stopped(pattern: regex.pattern, length: text.count, cancelled: false)
                stop.pointee = true
            }
        }
        if let stopped { throw stopped }
        return found
    }
}
