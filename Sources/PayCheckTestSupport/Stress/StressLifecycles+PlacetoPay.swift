import Foundation
import PayCheckCore
package import PayCheckProviders

/// PlacetoPay Checkout (providers.md §1): create a session, the payer pays with an approving card or cancels — the
/// same payer action twice at once —, the merchant queries. A session is `PENDING` until it is final, `APPROVED` or
/// `REJECTED` (§1.5, §1.11); the site's notification URL gets exactly one notification when it becomes final (§1.9).
struct PlacetoPayStress: StressLifecycle {
    package init() {}
    package var provider: any Provider { PlacetoPayProvider() }
    var initialStates: Set<String> { ["PENDING"] }
    package var transitions: [String: Set<String>] { ["PENDING": ["APPROVED", "REJECTED"]] }

    package func prepare(_ client: StressClient, hooks: String) async throws {
        let credentials = provider.mockCredentials
        try await client.perform(
            provider, .mock, "site",
            [
                "login": .string(credentials["login"] ?? ""), "secretKey": .string(credentials["secretKey"] ?? ""),
                "notificationUrl": .string(hooks),
            ]
        ).require(200, "mock: site")
    }

    package func run(_ index: Int, _ client: StressClient, hooks: String) async throws -> StressSession {
        let provider = self.provider
        let create = try await client.perform(
            provider, .call, "createSession",
            [
                "payment": ["reference": .string("STRESS-P-\(index)"), "description": "PayCheck stress", "amount": ["currency": "COP", "total": 10000]],
                "returnUrl": "https://merchant.test/return",
            ]
        ).require(200, "createSession")
        guard let requestId = create.text("requestId") else { throw StressFailure("createSession answered no requestId") }
        var session = StressSession(index: index, resource: requestId)
        try await session.observe(self.query(requestId, client))
        let (first, second): (Observation, Observation)
        if index % 3 == 2 {
            (first, second) = try await race { try await client.perform(provider, .payer, "cancel", ["requestId": .string(requestId)]) }
        } else {
            (first, second) = try await race {
                try await client.perform(provider, .payer, "pay", ["requestId": .string(requestId), "card": "4110760000000081"])
            }
        }
        session.duplicateStatuses = [first.status ?? 0, second.status ?? 0]
        let final = try await client.perform(provider, .call, "querySession", ["requestId": .string(requestId)]).require(200, "querySession")
        session.observe(final.text("status.status"))
        // One payer action, however often it arrives, approves one transaction.
        let approved = (final.body?["payment"]?.arrayValue ?? []).filter { $0["status"]?["status"]?.stringValue == "APPROVED" }.count
        if session.state == "APPROVED", approved != 1 { session.problems.append("\(approved) approved transactions") }
        return session
    }

    func query(_ requestId: String, _ client: StressClient) async throws -> String? {
        try await client.perform(provider, .call, "querySession", ["requestId": .string(requestId)]).require(200, "querySession")
            .text("status.status")
    }

    package func settle(_ session: StressSession, _ client: StressClient) async throws -> StressSession {
        var session = session
        session.observe(try await self.query(session.resource, client))
        return session
    }

    package func expectedWebhooks(_ history: [String]) -> Int {
        history.contains { $0 == "APPROVED" || $0 == "REJECTED" } ? 1 : 0
    }

    package func attribute(path: String, body: String, _ client: StressClient) async -> StressWebhook {
        let json = JSONText.parse(body)
        let reference = json?["reference"]?.stringValue ?? ""
        return StressWebhook(index: Int(reference.replacingOccurrences(of: "STRESS-P-", with: "")), state: json?["status"]?["status"]?.stringValue)
    }
}
