import Foundation
package import PayCheckCore
import PayCheckMock
import PayCheckProviders

/// The suites a command reads: the paths given (or the default folder), the merchant packs named with `--pack`, and
/// the merchant contract (`--contract`), found through ``SuiteLocations``.
package struct SuiteSelection: Sendable {
    /// The paths given on the command line; none means the default folder.
    package var given: [String]
    /// `--contract`: the merchant contract of the backend under test.
    package var contract: String?
    /// `--pack`: the merchant packs to run.
    package var packs: [String]
    /// Where the default folder and the packs are looked for.
    package var locations: SuiteLocations

    /// A selection as given.
    package init(given: [String] = [], contract: String? = nil, packs: [String] = [], locations: SuiteLocations = SuiteLocations()) {
        self.given = given
        self.contract = contract
        self.packs = packs
        self.locations = locations
    }

    /// The folder a run reads when no path is given.
    static let defaultPath = "Suites"

    /// The paths given, or `Suites` (see ``resolvedPaths``).
    var paths: [String] { given.isEmpty ? [Self.defaultPath] : given }

    /// `paths`, with the default `Suites` replaced, when the working folder has none, by `suites` (the folder
    /// `paycheck init` makes) or else the installed built-in suites.
    var resolvedPaths: [String] {
        guard paths == [Self.defaultPath] else { return paths }
        let here = locations.local(Self.defaultPath)
        guard !FileManager.default.fileExists(atPath: here) else { return [here] }
        let lowercase = locations.local("suites")
        if FileManager.default.fileExists(atPath: lowercase) { return [lowercase] }
        guard let installed = locations.installedSuites else { return [here] }
        return [installed.path]
    }

    /// What loading found: the suites and their problems, and the line that says which default folder was read
    /// instead of `Suites/` (`nil` when none was).
    package struct Loaded {
        package var result: SuiteLoader.Result
        package var notice: String?
    }

    /// Loads the suites with every built-in provider known to lint; the caller reports the diagnostics (after the
    /// notice). A path that does not exist but looks like a misspelt command (one of `commands`: `paycheck lnt`) gets
    /// a hint naming the command; a provider's name a hint naming its suites' folder.
    package func load(external: Set<String> = [], commands: [String] = []) -> Loaded {
        var loader = SuiteLoader(catalog: MockRegistry.providers)
        loader.externalVariables = external
        let here = locations.local(Self.defaultPath)
        var paths = resolvedPaths
        var packProblems: [Diagnostic] = []
        var notice: String?
        if !self.packs.isEmpty {
            if self.paths == [Self.defaultPath] { paths = [] }
            for name in self.packs {
                guard let folder = locations.packFolder(name) else {
                    let known = locations.packNames
                    packProblems.append(
                        Diagnostic(
                            at: nil, "no merchant pack '\(name)'",
                            hint: Suggest.nearest(name, in: known).map { "did you mean '\($0)'?" }
                                ?? (known.isEmpty ? "no packs are installed" : "known packs: " + known.joined(separator: ", "))))
                    continue
                }
                paths.append(folder)
            }
        } else if self.paths == [Self.defaultPath], paths == [locations.local("suites")] {
            notice = "no \(Self.defaultPath)/ here: reading suites/"
        } else if self.paths == [Self.defaultPath], paths != [here] {
            notice = "no \(Self.defaultPath)/ here: reading the built-in suites in \(paths[0])"
        }
        var result = loader.load(paths: paths)
        result.diagnostics += packProblems
        for (path, index) in result.missing {
            if path == here {
                // Nothing given and nothing here: not a misspelt command (`Suites` is near `states`).
                result.diagnostics[index].hint =
                    "with no path, paycheck reads Suites/ (or suites/) in this folder: give the suites' path, or create a first suite with 'paycheck init'"
                continue
            }
            if MockRegistry.providers.providerIDs.contains(String(path)) {
                // `paycheck run placetopay`: a provider's name where its suites' folder is meant.
                let folder =
                    [Self.defaultPath, "suites"].map { locations.local("\($0)/\(path)") }.first { FileManager.default.fileExists(atPath: $0) }
                    ?? locations.installedSuites.map { $0.appendingPathComponent(String(path)).path }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
                result.diagnostics[index].hint =
                    "'\(path)' is a provider: give its suites' folder" + (folder.map { " (\($0))" } ?? "")
                    + ", or run every suite and keep its cases with --filter \(path)"
                continue
            }
            guard let command = Suggest.nearest(String(path), in: commands) else { continue }
            result.diagnostics[index].hint = "did you mean the command 'paycheck \(command)'?"
        }
        return Loaded(result: result, notice: notice)
    }

    /// Reads `--contract` (nothing without it), putting its problems and text into `result`.
    package func loadContract(into result: inout SuiteLoader.Result) -> MerchantContract? {
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
            if !self.packs.isEmpty {
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
}
