import ArgumentParser
import Foundation
import Synchronization
import PayCheckCore
import PayCheckMock
import PayCheckProviders
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

    /// The paths given, or `Suites` (see ``resolvedPaths``).
    var paths: [String] { given.isEmpty ? [Self.defaultPath] : given }

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

    /// `paths`, with the default `Suites` replaced, when the current folder has none, by `suites` (the folder
    /// `paycheck init` makes) or else the installed built-in suites.
    var resolvedPaths: [String] {
        guard paths == [Self.defaultPath], !FileManager.default.fileExists(atPath: Self.defaultPath) else { return paths }
        if FileManager.default.fileExists(atPath: "suites") { return ["suites"] }
        guard let installed = Self.installedSuites else { return paths }
        return [installed.path]
    }

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

    /// The folders of the built-in merchant packs installed beside the binary (`PREFIX/share/paycheck/Packs`).
    static var installedPacks: URL? {
        installedSuites?.deletingLastPathComponent().appendingPathComponent("Packs", isDirectory: true)
    }

    /// Where packs are looked for, first first: `PAYCHECK_PACKS`, `Packs/` here, the packs installed with the binary.
    static var packFolders: [String] {
        let configured = ProcessInfo.processInfo.environment["PAYCHECK_PACKS"].flatMap { $0.isEmpty ? nil : $0 }
        return [configured, "Packs", installedPacks?.path].compactMap { $0 }
    }

    /// The folder of pack `name` in the first of ``packFolders`` that has it; `nil` when none has.
    static func packFolder(_ name: String) -> String? {
        guard !name.contains("/"), !name.hasPrefix(".") else { return nil }
        return packFolders.map { $0 + "/" + name }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The names of the packs available.
    static var packNames: [String] {
        Array(Set(packFolders.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }))
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Reads `--contract` (nothing without it), putting its problems and text into `result`.
    func loadContract(into result: inout SuiteLoader.Result) -> MerchantContract? {
        guard let contract else {
            // A `merchant:` step without a contract could only fail at run time: say so now, where it is written.
            for suite in result.suites {
                for testCase in suite.cases {
                    for step in testCase.steps {
                        guard let action = step.merchant else { continue }
                        result.diagnostics.append(
                            Diagnostic(
                                at: action.location, "'merchant: \(action.action.rawValue)' needs the merchant's backend: give --contract FILE",
                                hint: "a contract says how to start the backend and reach its checkout and orders (docs/merchant.md)"))
                    }
                }
            }
            if !self.pack.isEmpty {
                result.diagnostics.append(
                    Diagnostic(at: nil, "--pack runs against a merchant's backend and needs --contract FILE", hint: "see docs/merchant.md, or 'paycheck init --merchant PROVIDER'"))
            }
            return nil
        }
        let (parsed, diagnostics) = MerchantContract.load(file: contract, catalog: MockRegistry.providers)
        result.diagnostics += diagnostics
        if let text = try? String(contentsOfFile: contract, encoding: .utf8) { result.sources[contract] = text }
        return parsed
    }

    /// Loads the suites with every built-in provider known to lint; the caller reports the diagnostics. A path
    /// that does not exist but looks like a misspelt command (`paycheck lnt`) gets a hint naming the command.
    func load(external: Set<String> = []) -> SuiteLoader.Result {
        var loader = SuiteLoader(catalog: MockRegistry.providers)
        loader.externalVariables = external
        var paths = resolvedPaths
        var packProblems: [Diagnostic] = []
        if !self.pack.isEmpty {
            if self.paths == [Self.defaultPath] { paths = [] }
            for name in self.pack {
                guard let folder = Self.packFolder(name) else {
                    let known = Self.packNames
                    packProblems.append(
                        Diagnostic(
                            at: nil, "no merchant pack '\(name)'",
                            hint: Suggest.nearest(name, in: known).map { "did you mean '\($0)'?" }
                                ?? (known.isEmpty ? "no packs are installed" : "known packs: " + known.joined(separator: ", "))))
                    continue
                }
                paths.append(folder)
            }
        } else if paths == ["suites"], self.paths != paths {
            Output().err("no \(Self.defaultPath)/ here: reading suites/")
        } else if paths != self.paths {
            Output().err("no \(Self.defaultPath)/ here: reading the built-in suites in \(paths[0])")
        }
        var result = loader.load(paths: paths)
        result.diagnostics += packProblems
        let commands = PayCheckCommand.configuration.subcommands.map { $0._commandName }
        for (path, index) in result.missing {
            if path == Self.defaultPath {
                // Nothing given and nothing here: not a misspelt command (`Suites` is near `states`).
                result.diagnostics[index].hint =
                    "with no path, paycheck reads Suites/ (or suites/) in this folder: give the suites' path, or create a first suite with 'paycheck init'"
                continue
            }
            if ProfileOptions.providers.providerIDs.contains(String(path)) {
                // `paycheck run placetopay`: a provider's name where its suites' folder is meant.
                let folder =
                    [Self.defaultPath, "suites"].map { "\($0)/\(path)" }.first { FileManager.default.fileExists(atPath: $0) }
                    ?? Self.installedSuites.map { $0.appendingPathComponent(String(path)).path }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
                result.diagnostics[index].hint =
                    "'\(path)' is a provider: give its suites' folder" + (folder.map { " (\($0))" } ?? "")
                    + ", or run every suite and keep its cases with --filter \(path)"
                continue
            }
            guard let command = Suggest.nearest(String(path), in: commands) else { continue }
            result.diagnostics[index].hint = "did you mean the command 'paycheck \(command)'?"
        }
        return result
    }

    /// Whether to colour output on stdout.
    func colored(environment: [String: String]) -> Bool {
        switch color {
        case .always: true
        case .never: false
        case .auto: Self.autoColor(environment: environment, isTerminal: isatty(STDOUT_FILENO) == 1)
        }
    }

    /// `--color auto`: a non-empty `NO_COLOR` turns colour off (no-color.org); otherwise a `FORCE_COLOR` other than
    /// empty, `0` or `false` turns it on off a terminal (CI logs that render ANSI, force-color.org); else a terminal.
    static func autoColor(environment: [String: String], isTerminal: Bool) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if let force = environment["FORCE_COLOR"], !["", "0", "false"].contains(force.lowercased()) { return true }
        return isTerminal
    }
}

/// `--color` values.
enum ColorMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

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
