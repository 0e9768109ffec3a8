import Foundation
import PayCheckCommands
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import Testing

@Suite("states and targets")
struct StatesAndTargetsTests {
    @Test("states prints a table for every registered provider: one row per rule, unique keys, canonical outcomes", arguments: MockRegistry.providers.providerIDs)
    func statesForEveryProvider(id: String) throws {
        let provider = try #require(MockRegistry.providers[id])
        let canonical: Set<String> = ["succeeded", "pending", "declined", "canceled", "expired", "error"]  // DESIGN.md §3
        let rows = try #require(JSONSerialization.jsonObject(with: Data(StatesTable.json(provider).utf8)) as? [[String: Any]])
        #expect(!rows.isEmpty, "\(id) maps no native state")
        let keys = rows.map { row in [row["state"] as? String ?? "", row["reason"] as? String].compactMap { $0 }.joined(separator: "/") }
        #expect(Set(keys).count == keys.count, "\(id): a state listed twice would make one row dead: \(keys)")
        for row in rows {
            #expect(canonical.contains(row["outcome"] as? String ?? ""), "\(id): \(row)")
            #expect(!(row["note"] as? String ?? "").isEmpty, "\(id): \(row) has no note")
        }
        let lines = StatesTable.text(provider).split(separator: "\n").map(String.init)
        for key in keys { #expect(lines.contains { $0.hasPrefix("  \(key) ") }, "\(id): the table has no row for \(key)") }
        #expect(lines.count == keys.count + 2, "\(id): title, header and one line per rule")
    }

    @Test("a live target shows each provider's base URL and credentials masked, and names the missing ones")
    func liveTarget() throws {
        let placetopay = try #require(MockRegistry.providers["placetopay"])
        let secret = try #require(placetopay.credentialFields.first { $0.secret && $0.required })
        let text = TargetDescription.describe(.sandbox, providers: MockRegistry.providers, environment: [secret.environmentVariable: "sentinel-secret-4242"])
        #expect(text.hasPrefix("sandbox (built-in): live"), "\(text)")
        #expect(!text.contains("sentinel-secret-4242") && text.contains("set (secret, 20 characters)"), "\(text)")
        #expect(text.contains("missing: ") && text.contains("PAYCHECK_MOLLIE_API_KEY"), "\(text)")
        #expect(TargetDescription.describe(.mock, providers: MockRegistry.providers, environment: [:]).hasPrefix("mock (built-in, the default)"))
    }
}
