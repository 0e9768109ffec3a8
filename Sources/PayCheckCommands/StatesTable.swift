import Foundation
import PayCheckCore
package import PayCheckProviders

/// What `paycheck states PROVIDER` prints: the provider's native-state → canonical-outcome table, as text or JSON.
package enum StatesTable {
    /// The table as aligned text: a title, a header and one line per rule.
    package static func text(_ provider: any Provider) -> String {
        let rules = provider.outcomeMapping.rules
        let width = max(12, rules.map(\.key.count).max() ?? 0) + 2
        var lines = ["\(provider.id): native state → canonical outcome", ""]
        lines.append("  " + "STATE".padding(toLength: width, withPad: " ", startingAt: 0) + "OUTCOME    NOTE")
        for rule in rules {
            lines.append(
                "  " + rule.key.padding(toLength: width, withPad: " ", startingAt: 0)
                    + rule.outcome.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + Citation.withoutSections(rule.note))
        }
        return lines.joined(separator: "\n")
    }

    /// The table as a JSON array of `{state, reason, outcome, note}`.
    package static func json(_ provider: any Provider) -> String {
        let rows = provider.outcomeMapping.rules.map { rule in
            Value.object([
                "state": .string(rule.state), "reason": rule.reason.map(Value.string) ?? .null,
                "outcome": .string(rule.outcome.rawValue), "note": .string(Citation.withoutSections(rule.note)),
            ])
        }
        return JSONText.encode(.array(rows), pretty: true)
    }
}
