import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// The Mollie control API under `/__paycheck/mollie/` (``MollieControlAction``).
struct MollieControlRoutes: Sendable {
    let context: MollieContext

    func register(on router: Router<BasicRequestContext>) {
        ControlActionRoutes.register(
            MollieProvider(),
            handlers: [
                "payer/choose": { try await self.choose($0) },
                "mock/method": { try await self.method($0) },
                "mock/webhooks": { try await self.webhooks($0) },
                "mock/notify": { try await self.notify($0) },
            ], on: router)
    }

    private static func object(_ request: Request) async throws -> [String: Value] {
        try MockRequestBody.object(try await ControlRoutes.body(of: request))
    }

    /// The payer's choice on the test-mode screen (§4.7): only the transitions of §4.4; the webhook is called for
    /// every status but open/pending; the answer names the `redirectUrl` the customer goes back to.
    private func choose(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        guard let id = json["id"]?.stringValue, let statusText = json["status"]?.stringValue else {
            throw MockHTTPError(.badRequest, "'id' and 'status' are required, e.g. {\"id\": \"tr_…\", \"status\": \"paid\"}")
        }
        let choices: [MolliePaymentStatus] = [.paid, .failed, .canceled, .expired, .authorized, .pending]
        guard let status = MolliePaymentStatus(rawValue: statusText), choices.contains(status) else {
            throw MockHTTPError(.badRequest, "'status' must be one of \(choices.map(\.rawValue).joined(separator: ", ")), got \(MockHTTPError.quoted(statusText))")
        }
        let now = context.environment.clock.now()
        let outcome = context.store.withState { state -> Result<(MolliePayment, Bool), MockHTTPError> in
            guard let payment = state.payments[id] else { return .failure(MockHTTPError(.notFound, "no Mollie payment \(MockHTTPError.quoted(id))")) }
            guard let moved = state.transition(id, to: status, now: now) else {
                return .failure(MockHTTPError(.conflict, "payment \(id) is \(payment.status): it cannot become \(status) (providers.md §4.4)"))
            }
            return .success(moved)
        }
        let (payment, callsWebhook) = try outcome.get()
        if callsWebhook { await context.notify(payment) }
        let base = MollieAPIRoutes.base(request)
        return MockResponse.json(
            .object([
                "payment": payment.json(base: base), "redirectUrl": payment.redirectUrl.map { .string($0) } ?? .null,
            ]))
    }

    private func method(_ request: Request) async throws -> Response {
        let json = try await Self.object(request)
        guard let id = json["id"]?.stringValue else { throw MockHTTPError(.badRequest, "'id' is required, e.g. ideal") }
        let available = json["available"]?.boolValue ?? true
        let found = context.store.withState { state -> Bool in
            guard let index = state.methods.firstIndex(where: { $0.id == id }) else { return false }
            state.methods[index].available = available
            return true
        }
        guard found else { throw MockHTTPError(.notFound, "no Mollie method \(MockHTTPError.quoted(id))") }
        return MockResponse.json(.object(["id": .string(id), "available": .bool(available)]))
    }

    /// `mock: notify {"id": "tr_…"}`: calls the payment's webhook now, whatever its status (§4.6: the call carries
    /// only the id). Answers the payment's status and its webhook URL.
    private func notify(_ request: Request) async throws -> Response {
        guard let id = try await Self.object(request)["id"]?.stringValue else {
            throw MockHTTPError(.badRequest, "'id' is required, e.g. {\"id\": \"tr_…\"}")
        }
        guard let payment = context.store.withState({ $0.payments[id] }) else {
            throw MockHTTPError(.notFound, "no Mollie payment \(MockHTTPError.quoted(id))")
        }
        guard let url = payment.webhookUrl, !url.isEmpty else {
            throw MockHTTPError(.badRequest, "payment \(id) has no webhookUrl to call")
        }
        await context.notify(payment)
        return MockResponse.json(.object(["id": .string(id), "status": .string(payment.status.rawValue), "webhookUrl": .string(url)]))
    }

    private func webhooks(_ request: Request) async throws -> Response {
        let id = try await Self.object(request)["id"]?.stringValue
        let entries = context.store.withState { state in state.webhookLog.filter { id == nil || $0["id"]?.stringValue == id } }
        return MockResponse.json(.object(["count": .int(entries.count), "webhooks": .array(entries)]))
    }
}
