import PayCheckCore

/// Something that happened between the mock and the merchant's backend while a step ran: a request the backend
/// sent to the mock (with the mock's answer), or a notification the mock sent to the backend (with its answer).
package struct Evidence: Sendable {
    /// Which way it went.
    package enum Kind: String, Sendable {
        /// The backend called the provider (the mock).
        case request
        /// The provider (the mock) notified the backend.
        case notification
    }

    /// Which way it went.
    package var kind: Kind
    /// Its number in the mock's journal: evidence sorts by it.
    package var sequence: Int
    /// The provider, for a notification.
    package var provider: String?
    /// The HTTP method.
    package var method: String
    /// The path on the mock (a request) or the backend's URL (a notification).
    package var target: String
    /// The headers sent, redacted.
    package var headers: [(name: String, value: String)]
    /// The body sent, redacted.
    package var body: String
    /// The answer's status; `nil` when none came.
    package var status: Int?
    /// The answer's body, redacted.
    package var answer: String
    /// The attempt number, for a notification.
    package var attempt: Int?
    /// Why no answer came, for a notification.
    package var error: String?
    /// When, on the mock's clock (ISO 8601).
    package var at: String

    /// Creates a record.
    package init(
        kind: Kind, sequence: Int, provider: String? = nil, method: String, target: String,
        headers: [(name: String, value: String)], body: String, status: Int?, answer: String, attempt: Int? = nil,
        error: String? = nil, at: String
    ) {
        self.kind = kind
        self.sequence = sequence
        self.provider = provider
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.status = status
        self.answer = answer
        self.attempt = attempt
        self.error = error
        self.at = at
    }

    /// One line: `→ POST /placetopay/api/session 200` or `← notification 1 to http://…/notify: 200`.
    package var summary: String {
        switch self.kind {
        case .request:
            return "backend → mock: \(self.method) \(self.target) → \(self.status.map(String.init) ?? "no answer")"
        case .notification:
            let outcome = self.status.map(String.init) ?? "no answer" + (self.error.map { " (\($0))" } ?? "")
            return "mock → backend: \(self.provider ?? "") notification, attempt \(self.attempt ?? 1), \(self.method) \(self.target) → \(outcome)"
        }
    }
}
