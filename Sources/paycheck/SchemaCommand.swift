import ArgumentParser
import PayCheckCore
import PayCheckMock
import PayCheckReports

/// `paycheck schema`: prints the JSON Schema of suite files or of the JSON report.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of suite files (default), of merchant contracts or of the JSON report.",
        discussion: HelpText.reflow(
            """
            Editors validate and complete suites with it: save it next to your suites and start each
            suite with '# yaml-language-server: $schema=<path to it>' (VS Code with the YAML extension,
            JetBrains IDEs). 'paycheck init' does both for you. The suite schema knows every provider's
            operations and actions and the with: keys each takes, the fault kinds and the outcomes.
            """))

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case suite, contract, report
    }

    @Argument(help: "suite, contract or report.")
    var kind: Kind = .suite

    func run() {
        switch kind {
        case .suite: Output().raw(SuiteSchema.jsonSchema(catalog: MockRegistry.providers))
        case .contract: Output().raw(ContractSchema.jsonSchema)
        case .report: Output().raw(JSONReportSchema.jsonSchema + "\n")
        }
    }
}
