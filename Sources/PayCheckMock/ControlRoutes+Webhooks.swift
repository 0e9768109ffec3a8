import Hummingbird
import PayCheckCore

extension ControlRoutes {
    /// Adds `GET /__paycheck/webhooks?provider=…&scope=…`: every webhook attempt, oldest first, as a JSON array of
    /// ``WebhookAttempt/json`` objects, optionally only one provider's and one clock scope's. The log is cleared by
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
            let attempts = dispatcher.attempts(provider: provider, scope: scope)
            return MockResponse.text(
                JSONText.encode(.array(attempts.map(\.json))), status: .ok)
        }
    }
}
