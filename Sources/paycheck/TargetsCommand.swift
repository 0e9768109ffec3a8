import ArgumentParser
import PayCheckCommands
import Foundation
import PayCheckProviders
import PayCheckRunner
import PayCheckCore

/// `paycheck targets`: what a run would use on each target, secrets masked, every missing credential named.
struct TargetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "targets",
        abstract: "Show the targets a run can use: base URLs, credentials (masked), limits and TLS.",
        discussion: HelpText.reflow(
            """
            Lists the built-in targets (mock, sandbox) and those of the target profile (--profile, or
            paycheck.yaml in the current folder). For each provider of a live target: the base URL, where
            each credential comes from and whether it is set (secrets are never shown), the time limit,
            rate limit and concurrency. A provider with no credential set is skipped by a run; one with
            only some of them set is a configuration error. Exits 2 when the profile is invalid.
            """))

    @OptionGroup var profile: ProfileOptions

    @Option(name: .long, help: ArgumentHelp("Show only this target.", valueName: "target"))
    var target: String?

    func run() throws {
        let output = Output()
        let providers = ProfileOptions.providers
        let profile = try self.profile.load(output: output, colored: false)
        let environment = ProcessInfo.processInfo.environment
        var shown: [Target]
        if let target {
            shown = [try ProfileOptions.resolve(target, profile: profile, output: output)]
        } else {
            shown = [.mock]
            if profile?.target("sandbox") == nil { shown.append(.sandbox) }
            shown += profile?.targets.map(Target.live) ?? []
        }
        output.out(profile.map { "Target profile: \($0.file)" } ?? "No target profile (give --profile FILE or write paycheck.yaml); the built-in targets:")
        for target in shown {
            output.out("")
            output.out(TargetDescription.describe(target, providers: providers, environment: environment))
        }
    }
}
