import ArgumentParser
import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckReports

/// Options shared by commands that read suites.
struct SuiteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "Suite files or folders (folders are searched for *.yaml and *.yml).",
        discussion: "Default: Suites/ in the current folder; where there is none, the built-in suites installed with the binary (PREFIX/share/paycheck/Suites)."
    ))
    var paths: [String] = [SuiteOptions.defaultPath]

    /// The folder a run reads when no path is given.
    static let defaultPath = "Suites"

    /// The built-in suites that `scripts/install.sh` puts beside an installed binary (`PREFIX/bin/paycheck` →
    /// `PREFIX/share/paycheck/Suites`). They are found rather than embedded: suites are plain files a merchant reads,
    /// copies and edits, and `include:` steps resolve relative to the file.
    static var installedSuites: URL? {
        guard let binary = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let folder = binary.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/paycheck/Suites", isDirectory: true)
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue ? folder : nil
    }

    /// `paths`, with the default `Suites` replaced by the installed built-in suites when the current folder has none.
    var resolvedPaths: [String] {
        guard paths == [Self.defaultPath], !FileManager.default.fileExists(atPath: Self.defaultPath),
            let installed = Self.installedSuites
        else { return paths }
        return [installed.path]
    }

    @Option(name: .long, help: ArgumentHelp("Colour output: auto (on a terminal, unless NO_COLOR is set), always, never.", valueName: "when"))
    var color: ColorMode = .auto

    /// Loads the suites with every built-in provider known to lint; the caller reports the diagnostics. A path
    /// that does not exist but looks like a misspelt command (`paycheck lnt`) gets a hint naming the command.
    func load(external: Set<String> = []) -> SuiteLoader.Result {
        var loader = SuiteLoader(catalog: MockRegistry.providers)
        loader.externalVariables = external
        let paths = resolvedPaths
        if paths != self.paths { Output().err("no \(Self.defaultPath)/ here: reading the built-in suites in \(paths[0])") }
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
