import ArgumentParser
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import Foundation

/// `paycheck states PROVIDER`: the provider's native-state → canonical-outcome table.
struct StatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "states",
        abstract: "Print a provider's native-state → canonical-outcome mapping table.",
        discussion: HelpText.reflow(
            """
            Each row is a native state, optionally narrowed by a reason (STATE/REASON), and the
            canonical outcome PayCheck maps it to (succeeded, pending, declined, canceled, expired,
            error…). A state the table does not list makes a step fail as unmapped. Rows are matched
            most specific first. 'paycheck explain --provider ID' adds the error catalog.
            """))

    @Argument(help: ArgumentHelp("The provider id.", valueName: "provider"))
    var provider: String

    @Flag(name: .long, help: "Print the table as JSON ([{state, reason, outcome, note}]).")
    var json = false

    func validate() throws {
        guard MockRegistry.providers[provider] != nil else {
            let known = MockRegistry.providers.providerIDs
            let hint = Suggest.nearest(provider, in: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw ValidationError("unknown provider '\(provider)'\(hint); known: \(known.joined(separator: ", "))")
        }
    }

    func run() throws {
        guard let adapter = MockRegistry.providers[provider] else { return }
        let rules = adapter.outcomeMapping.rules
        if json {
            let rows = rules.map { rule in
                Value.object([
                    "state": .string(rule.state), "reason": rule.reason.map(Value.string) ?? .null,
                    "outcome": .string(rule.outcome.rawValue), "note": .string(Citation.withoutSections(rule.note)),
                ])
            }
            Output().out(JSONText.encode(.array(rows), pretty: true))
            return
        }
        let width = max(12, rules.map(\.key.count).max() ?? 0) + 2
        var lines = ["\(adapter.id): native state → canonical outcome", ""]
        lines.append("  " + "STATE".padding(toLength: width, withPad: " ", startingAt: 0) + "OUTCOME    NOTE")
        for rule in rules {
            lines.append(
                "  " + rule.key.padding(toLength: width, withPad: " ", startingAt: 0)
                    + rule.outcome.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + Citation.withoutSections(rule.note))
        }
        Output().out(lines.joined(separator: "\n"))
    }
}
