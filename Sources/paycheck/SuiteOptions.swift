import ArgumentParser
import Foundation
import Synchronization
import PayCheckCommands
import PayCheckCore
import PayCheckReports

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

/// Writes to stdout and stderr without interleaving partial lines.
struct Output: Sendable {
    /// What was written to stderr, kept by a command that may have to say it again in its reports (`run`).
    final class ErrorLog: Sendable {
        let lines = Mutex<[String]>([])
    }
    let errors: ErrorLog?

    /// An output; `keepingErrors` keeps a copy of what goes to stderr (``errorText``).
    init(keepingErrors: Bool = false) {
        self.errors = keepingErrors ? ErrorLog() : nil
    }

    /// What was written to stderr so far, without colours; empty unless the output keeps errors.
    var errorText: String {
        let text = errors?.lines.withLock { $0.joined(separator: "\n") } ?? ""
        return text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// Writes text (a newline is added) to stdout.
    func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes raw text to stdout.
    func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes text (a newline is added) to stderr.
    func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
        errors?.lines.withLock { $0.append(text) }
    }

    /// Prints load diagnostics to stderr with source lines, and returns whether there were errors.
    @discardableResult
    func report(_ result: SuiteLoader.Result, colored: Bool) -> Bool {
        guard !result.diagnostics.isEmpty else { return false }
        err(ConsoleReporter.diagnostics(result.diagnostics, sources: result.sources, colored: colored))
        return result.diagnostics.hasErrors
    }
}
