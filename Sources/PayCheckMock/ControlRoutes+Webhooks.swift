import Hummingbird
import PayCheckCore

extension ControlRoutes {
    /// Adds `GET /__paycheck/webhooks?provider=…&scope=…&from=…`: every webhook attempt, oldest first, as a JSON
    /// array of ``WebhookAttempt/json`` objects, optionally only one provider's, one clock scope's and those numbered
    /// at least `from` (the journal's numbering). The log is cleared by
    /// `POST /__paycheck/reset`.
    func registerWebhooks(on router: Router<BasicRequestContext>) {
        let dispatcher = self.host.webhooks
        router.get("\(ControlPath.root)/webhooks") { request, _ -> Response in
            let query = request.uri.queryParameters
            let provider = query["provider"].map(String.init)
            var scope: ClockScope?
            if let raw = query["scope"].map(String.init) {
                guard let parsed = ClockScope(raw) else {
                    throw MockHTTPError(.badRequest, "invalid 'scope' \(MockHTTPError.quoted(raw))")
                }
                scope = parsed
            }
            var from = 0
            if let raw = query["from"].map(String.init) {
                guard let number = Int(raw), number >= 0 else {
                    throw MockHTTPError(.badRequest, "invalid 'from' \(MockHTTPError.quoted(raw)): expected a sequence number")
                }
                from = number
            }
            let attempts = dispatcher.attempts(provider: provider, scope: scope, from: from)
            return MockResponse.text(
                JSONText.encode(.array(attempts.map(\.json))), status: .ok)
        }
    }
}
