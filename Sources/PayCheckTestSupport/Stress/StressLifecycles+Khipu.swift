import Foundation
import PayCheckCore
package import PayCheckProviders

/// khipu (providers.md §2.5, §2.8, §2.12 B3): a 3.0 payment is `pending`; the payer pays through DemoBank (twice at
/// once) and it is `verifying`; reconciliation (`mock: conciliate` twice at once, or the mock clock passing the
/// conciliation delay) makes it `done/normal` and notifies `notify_url` once (§2.7); the payer's refusal (twice at
/// once) ends it `done/rejected-by-payer`, which API 3.0 notifies too ("success/failure", §2.7).
struct KhipuStress: StressLifecycle {
    package init() {}
    package var provider: any Provider { KhipuProvider() }
    var initialStates: Set<String> { ["pending"] }
    package var transitions: [String: Set<String>] {
        ["pending": ["verifying", "done/rejected-by-payer", "done/marked-paid-by-receiver"], "verifying": ["done/normal"]]
    }
    /// Past the 30 s conciliation delay of the mock's default account.
    package var settleAdvance: String? { "31s" }

    package func run(_ index: Int, _ client: StressClient, hooks: String) async throws -> StressSession {
        let provider = self.provider
        let create = try await client.perform(
            provider, .call, "createPayment",
            [
                "subject": .string("Stress \(index)"), "currency": "CLP", "amount": 1000, "transaction_id": .string("STRESS-K-\(index)"),
                "notify_url": .string("\(hooks)/\(index)"), "notify_api_version": "3.0",
            ]
        ).require(200, "createPayment")
        guard let id = create.text("payment_id") else { throw StressFailure("createPayment answered no payment_id") }
        var session = StressSession(index: index, resource: id)
        session.observe(try await self.query(id, client))
        let payment: [String: Value] = ["payment_id": .string(id)]
        if index % 4 == 3 {
            let (a, b) = try await race { try await client.perform(provider, .payer, "reject", payment) }
            session.duplicateStatuses = [a.status ?? 0, b.status ?? 0]
        } else {
            let (a, b) = try await race { try await client.perform(provider, .payer, "pay", payment) }
            session.duplicateStatuses = [a.status ?? 0, b.status ?? 0]
            session.observe(try await self.query(id, client))
            // Every fourth paid session is left to the mock clock (the settle phase moves it past the delay).
            if index % 4 != 0 {
                let (c, d) = try await race { try await client.perform(provider, .mock, "conciliate", payment) }
                session.duplicateStatuses += [c.status ?? 0, d.status ?? 0]
            }
        }
        session.observe(try await self.query(id, client))
        return session
    }

    func query(_ id: String, _ client: StressClient) async throws -> String? {
        let answer = try await client.perform(provider, .call, "getPayment", ["payment_id": .string(id)]).require(200, "getPayment")
        guard let status = answer.text("status") else { return nil }
        return status == "done" ? "done/\(answer.text("status_detail") ?? "")" : status
    }

    package func settle(_ session: StressSession, _ client: StressClient) async throws -> StressSession {
        var session = session
        session.observe(try await self.query(session.resource, client))
        return session
    }

    package func expectedWebhooks(_ history: [String]) -> Int {
        history.contains { $0 == "done/normal" || $0 == "done/marked-paid-by-receiver" || $0 == "done/rejected-by-payer" } ? 1 : 0
    }

    package func attribute(path: String, body: String, _ client: StressClient) async -> StressWebhook {
        let json = JSONText.parse(body)
        let state = json?["status"]?.stringValue.map { $0 == "done" ? "done/\(json?["status_detail"]?.stringValue ?? "")" : $0 }
        return StressWebhook(index: self.trailingIndex(path), state: state)
    }
}
