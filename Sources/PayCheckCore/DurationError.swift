/// A duration that could not be read: not a duration at all, or beyond ``DurationText/maximumSeconds``.
package struct DurationError: Error, Sendable, Equatable {
    /// What went wrong.
    package enum Problem: Sendable, Equatable {
        /// The text is not a number with an optional unit.
        case notADuration
        /// The amount is not finite or longer than ten years.
        case outOfBounds
    }

    /// The text as written.
    package var text: String
    /// What went wrong.
    package var problem: Problem

    /// Creates an error about `text`.
    package init(text: String, problem: Problem) {
        self.text = text
        self.problem = problem
    }

    /// A lower-case message quoting the text, e.g. `'213504d' is longer than the limit of 3650d (10 years)`.
    package var message: String {
        switch problem {
        case .notADuration:
            "'\(text)' is not a duration like '500ms', '2s', '31m', '1h' or '2d'"
        case .outOfBounds:
            "'\(text)' is longer than the limit of 3650d (10 years)"
        }
    }
}
