import ArgumentParser
import PayCheckCommands
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
        Output().out(json ? StatesTable.json(adapter) : StatesTable.text(adapter))
    }
}
