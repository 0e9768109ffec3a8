import ArgumentParser
import Foundation
import PayCheckCommands
import PayCheckCore

/// Options shared by commands that read suites.
struct SuiteOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Suite files or folders (folders are searched for *.yaml and *.yml).",
            discussion:
                "Default: Suites/ in the current folder; where there is none, suites/ (what paycheck init makes), else the built-in suites installed with the binary (PREFIX/share/paycheck/Suites).",
            valueName: "paths"
        ))
    var given: [String] = []

    @Option(name: .long, help: ArgumentHelp("Colour output: auto (on a terminal, or wherever FORCE_COLOR is set, unless NO_COLOR is), always, never.", valueName: "when"))
    var color: ColorMode = .auto

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The merchant contract of the backend under test: how to start it, start a checkout and read an order (docs/merchant.md). 'merchant:' steps need it.",
            valueName: "file"))
    var contract: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run a merchant pack (e.g. mollie, placetopay) from $PAYCHECK_PACKS, Packs/ here, or the packs installed with the binary. Repeatable; needs --contract.",
            valueName: "name"))
    var pack: [String] = []

    /// The options as plain values, for the library (``SuiteSelection``), found from this binary and the current folder.
    var selection: SuiteSelection {
        SuiteSelection(given: given, contract: contract, packs: pack, locations: Self.locations)
    }

    /// Where this binary finds the default suites and the merchant packs.
    static var locations: SuiteLocations {
        SuiteLocations(executable: Bundle.main.executableURL, environment: ProcessInfo.processInfo.environment)
    }

    /// Reads `--contract` (nothing without it), putting its problems and text into `result`.
    func loadContract(into result: inout SuiteLoader.Result) -> MerchantContract? {
        selection.loadContract(into: &result)
    }

    /// Loads the suites (``SuiteSelection/load(external:commands:)``), saying first which default folder it reads.
    func load(external: Set<String> = []) -> SuiteLoader.Result {
        let loaded = selection.load(external: external, commands: PayCheckCommand.configuration.subcommands.map { $0._commandName })
        if let notice = loaded.notice { Output().err(notice) }
        return loaded.result
    }

    /// Whether to colour output on stdout.
    func colored(environment: [String: String]) -> Bool {
        color.colored(environment: environment, isTerminal: isatty(STDOUT_FILENO) == 1)
    }
}

extension ColorMode: ExpressibleByArgument {}
