import ArgumentParser
import Foundation
import PayCheckCore
import PayCheckProviders
import PayCheckReports
import PayCheckRunner
import PayCheckSession

/// `--profile`: the target profile (``TargetProfile``) a command reads, `paycheck.yaml` in the working folder by default.
struct ProfileOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A target profile naming live targets: per-provider base URLs, credentials as ${ENV_VAR} references, time and rate limits, TLS (default: paycheck.yaml in the current folder, if there is one).",
            valueName: "file"))
    var profile: String?

    /// The file to read: `--profile`, or `paycheck.yaml` when it exists.
    var path: String? {
        profile ?? (FileManager.default.fileExists(atPath: TargetProfile.defaultFile) ? TargetProfile.defaultFile : nil)
    }

    /// The built-in providers, whose credential fields a profile names.
    static var providers: ProviderRegistry { RunSession.builtIn(configuration: RunConfiguration()).providers }

    /// Reads the profile, printing its diagnostics; `nil` when there is none.
    /// - Throws: exit 2 when the profile is invalid or `--profile` names a file that cannot be read.
    func load(output: Output, colored: Bool) throws -> TargetProfile? {
        guard let path else { return nil }
        let loaded = TargetProfile.load(path, providers: Self.providers)
        if !loaded.diagnostics.isEmpty {
            output.err(ConsoleReporter.diagnostics(loaded.diagnostics, sources: loaded.source.map { [path: $0] } ?? [:], colored: colored))
        }
        guard let profile = loaded.profile, !loaded.diagnostics.hasErrors else { throw ExitCode(2) }
        return profile
    }

    /// The target `--target NAME` means: `mock`, `url=…`, a profile's target, or the built-in `sandbox`.
    /// - Throws: exit 2 after printing the targets there are, with the nearest name.
    static func resolve(_ name: String, profile: TargetProfile?, output: Output) throws -> Target {
        do {
            return try resolve(name, profile: profile)
        } catch let error as ValidationError {
            output.err("error: \(error.message)")
            throw ExitCode(2)
        }
    }

    /// The target `--target NAME` means.
    /// - Throws: a `ValidationError` listing the targets there are, with the nearest name.
    static func resolve(_ name: String, profile: TargetProfile?) throws -> Target {
        if let target = profile?.target(name) { return .live(target) }
        if let target = Target(parsing: name) { return target }
        let known = ["mock", "sandbox"] + (profile?.targets.map(\.name).filter { $0 != "sandbox" } ?? [])
        let nearest = Suggest.nearest(name, in: known).map { " Did you mean '\($0)'?" } ?? ""
        let from =
            profile.map { " (the profile '\($0.file)' names: \($0.targets.map(\.name).joined(separator: ", ")))" }
            ?? " (no target profile: give --profile FILE or write paycheck.yaml)"
        throw ValidationError("unknown target '\(name)': the targets are \(known.joined(separator: ", ")) and url=http(s)://host:port\(from).\(nearest)")
    }
}
