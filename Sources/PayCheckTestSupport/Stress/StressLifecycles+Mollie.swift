import Foundation
import PayCheckCore
package import PayCheckProviders

/// Mollie (providers.md §4.4, §4.7, §4.12 2.4–2.5): the create is sent twice at once under one `Idempotency-Key`
/// (one payment; the other answer is the replay or 409 while the first is in flight) and once more afterwards (the
/// replay, `Idempotent-Replayed: true`); the payer picks the outcome on the test screen (twice at once); an open
/// payment expires on the mock clock. The webhook is called on `paid`, `authorized`, `failed`, `canceled`, `expired`.
struct MollieStress: StressLifecycle {
    package init() {}
    package var provider: any Provider { MollieProvider() }
    var initialStates: Set<String> { ["open"] }
    /// §4.4's allowed transitions.
    package var transitions: [String: Set<String>] {
        [
            "open": ["pending", "paid", "failed", "canceled", "expired", "authorized"],
            "pending": ["paid", "failed", "expired", "canceled"],
            "authorized": ["paid", "canceled", "expired"],
        ]
    }
    /// Past `expiresAt`, 15 minutes after the create.
    package var settleAdvance: String? { "16m" }

    package func run(_ index: Int, _ client: StressClient, hooks: String) async throws -> StressSession {
        let provider = self.provider
        let key = "stress-mollie-\(index)"
        let create: [String: Value] = [
            "amount": ["currency": "EUR", "value": "10.00"], "description": .string("Stress \(index)"),
            "redirectUrl": "https://merchant.test/return", "webhookUrl": .string("\(hooks)/\(index)"), "idempotencyKey": .string(key),
        ]
        let (a, b) = try await race { try await client.perform(provider, .call, "createPayment", create) }
        let ids = Set([a, b].filter { $0.status == 201 }.compactMap { $0.text("id") })
        guard let id = ids.first else { throw StressFailure("neither racing createPayment answered 201: \(a.rawBody.prefix(200))") }
        var session = StressSession(index: index, resource: id, idempotencyKey: key)
        session.duplicateStatuses = [a.status ?? 0, b.status ?? 0]
        if ids.count > 1 { session.problems.append("one Idempotency-Key created \(ids.sorted())") }
        for answer in [a, b] where answer.status != 201 && answer.status != 409 {
            session.problems.append("a racing create answered \(answer.status ?? 0)")
        }
        let replay = try await client.perform(provider, .call, "createPayment", create).require(201, "replayed createPayment")
        if replay.text("id") != id || replay.header("Idempotent-Replayed") != "true" {
            session.problems.append("the replay answered \(replay.text("id") ?? "no id"), Idempotent-Replayed \(replay.header("Idempotent-Replayed") ?? "absent")")
        }
        session.observe(try await self.query(id, client))
        let choices: [String] =
            switch index % 5 {
            case 0: ["paid"]
            case 1: ["failed"]
            case 2: ["canceled"]
            case 3: ["authorized", "paid"]
            default: []  // left open: it expires in the settle phase
            }
        for status in choices {
            let (c, d) = try await race { try await client.perform(provider, .payer, "choose", ["id": .string(id), "status": .string(status)]) }
            session.duplicateStatuses += [c.status ?? 0, d.status ?? 0]
            session.observe(try await self.query(id, client))
        }
        return session
    }

    func query(_ id: String, _ client: StressClient) async throws -> String? {
        try await client.perform(provider, .call, "getPayment", ["id": .string(id)]).require(200, "getPayment").text("status")
    }

    package func settle(_ session: StressSession, _ client: StressClient) async throws -> StressSession {
        var session = session
        session.observe(try await self.query(session.resource, client))
        return session
    }

    package func expectedWebhooks(_ history: [String]) -> Int {
        history.filter { ["paid", "authorized", "failed", "canceled", "expired"].contains($0) }.count
    }

    /// Mollie's webhook carries only `id=tr_…` (§4.12 2.5): the merchant fetches the state.
    package func attribute(path: String, body: String, _ client: StressClient) async -> StressWebhook {
        StressWebhook(index: self.trailingIndex(path), state: nil)
    }
}
