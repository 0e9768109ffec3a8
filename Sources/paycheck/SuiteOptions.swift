import ArgumentParser
import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckReports

/// Options shared by commands that read suites.
struct SuiteOptions: ParsableArguments {
    @Argument(help: "Suite files or folders (folders are searched for *.yaml and *.yml).")
    var paths: [String] = ["Suites"]

    @Option(name: .long, help: ArgumentHelp("Colour output: auto (on a terminal, unless NO_COLOR is set), always, never.", valueName: "when"))
    var color: ColorMode = .auto

    /// Loads the suites with every built-in provider known to lint; the caller reports the diagnostics. A path
    /// that does not exist but looks like a misspelt command (`paycheck lnt`) gets a hint naming the command.
    func load(external: Set<String> = []) -> SuiteLoader.Result {
        var loader = SuiteLoader(catalog: MockRegistry.providers)
        loader.externalVariables = external
        var result = loader.load(paths: paths)
        let commands = PayCheckCommand.configuration.subcommands.map { $0._commandName }
        for index in result.diagnostics.indices {
            let message = result.diagnostics[index].message
            guard message.hasPrefix("no such file or folder '"), let path = message.split(separator: "'").dropFirst().first,
                let command = Suggest.nearest(String(path), in: commands)
            else { continue }
            result.diagnostics[index].hint = "did you mean the command 'paycheck \(command)'?"
        }
        return result
    }

    /// Whether to colour output on stdout.
    func colored(environment: [String: String]) -> Bool {
        switch color {
        case .always: true
        case .never: false
        case .auto: environment["NO_COLOR"].map(\.isEmpty) ?? true ? isatty(STDOUT_FILENO) == 1 : false
        }
    }
}

/// `--color` values.
enum ColorMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// Writes to stdout and stderr without interleaving partial lines.
struct Output: Sendable {
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
    }

    /// Prints load diagnostics to stderr with source lines, and returns whether there were errors.
    @discardableResult
    func report(_ result: SuiteLoader.Result, colored: Bool) -> Bool {
        guard !result.diagnostics.isEmpty else { return false }
        err(ConsoleReporter.diagnostics(result.diagnostics, sources: result.sources, colored: colored))
        return result.diagnostics.hasErrors
    }
}
