import Foundation
import PayCheckCore
package import PayCheckProviders

/// MIT WebPay Plus (providers.md §5.2, §5.3, §5.11 C–D): a generated link is `pending` on its hosted page; the payer
/// pays it once (`approved`, `denied` or `error`) — the same payment twice at once is answered once and refused
/// (409) once —, and the site's response URL gets one encrypted notification.
struct MITStress: StressLifecycle {
    package init() {}
    package var provider: any Provider { MITProvider() }
    var initialStates: Set<String> { ["pending"] }
    package var transitions: [String: Set<String>] { ["pending": ["approved", "denied", "error"]] }

    package func prepare(_ client: StressClient, hooks: String) async throws {
        try await client.perform(provider, .mock, "site", ["data0": .string(provider.mockCredentials["data0"] ?? ""), "responseUrl": .string(hooks)])
            .require(200, "mock: site")
    }

    package func run(_ index: Int, _ client: StressClient, hooks: String) async throws -> StressSession {
        let provider = self.provider
        let link = try await client.perform(provider, .call, "generateLink", ["reference": .string("STRESS-M-\(index)"), "amount": "10.00"])
            .require(200, "generateLink")
        guard let url = link.text("P_RESPONSE.nb_url") else { throw StressFailure("generateLink answered no nb_url: \(link.rawBody.prefix(200))") }
        var session = StressSession(index: index, resource: url)
        session.observe(try await self.page(url, client))
        let result = ["approved", "denied", "error"][index % 3]
        var action: [String: Value] = ["url": .string(url), "result": .string(result)]
        if result == "error" { action["cd_error"] = "05" }
        let pay = action
        let (a, b) = try await race { try await client.perform(provider, .payer, "pay", pay) }
        session.duplicateStatuses = [a.status ?? 0, b.status ?? 0]
        if session.duplicateStatuses.sorted() != [200, 409] {
            session.problems.append("the same payment twice answered \(session.duplicateStatuses), not once 200 and once 409")
        }
        session.observe(try await self.page(url, client))
        return session
    }

    /// The state on the hosted page (`<dd id="status">`).
    func page(_ url: String, _ client: StressClient) async throws -> String? {
        let response = try await client.send("GET", url)
        guard response.status == 200 else { throw StressFailure("GET \(url) answered \(response.status)") }
        let marker = "<dd id=\"status\">"
        guard let start = response.text.range(of: marker) else { return nil }
        return String(response.text[start.upperBound...].prefix { $0 != "<" })
    }

    package func settle(_ session: StressSession, _ client: StressClient) async throws -> StressSession {
        var session = session
        session.observe(try await self.page(session.resource, client))
        return session
    }

    package func expectedWebhooks(_ history: [String]) -> Int { history.contains { $0 != "pending" } ? 1 : 0 }

    /// Decrypts `strResponse` as the merchant's response URL does (`call: readNotification`).
    package func attribute(path: String, body: String, _ client: StressClient) async -> StressWebhook {
        guard let read = try? await client.perform(provider, .call, "readNotification", ["form": .string(body)]),
            let result = read.body?["CENTEROFPAYMENTS"]
        else { return StressWebhook(index: nil, state: nil) }
        let reference = result["reference"]?.stringValue ?? ""
        return StressWebhook(index: Int(reference.replacingOccurrences(of: "STRESS-M-", with: "")), state: result["response"]?.stringValue)
    }
}
