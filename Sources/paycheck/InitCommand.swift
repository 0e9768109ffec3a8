import ArgumentParser
import Foundation
import PayCheckCommands
import PayCheckCore

/// `paycheck init`: scaffolds a merchant's suite folder — a first suite that passes on the embedded mock and the CI
/// jobs that run it — without overwriting anything.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a suite folder with a first suite for a provider and CI job examples.",
        discussion: HelpText.reflow(
            """
            Writes <folder>/suites/<provider>/smoke.yaml (a payment through the provider's flow, the payer
            played by PayCheck, and a wrong credential refused: it passes on the embedded mock; --provider
            chooses placetopay, mollie, khipu, yuno or mit), <folder>/suites/paycheck.schema.json (the suite schema, which
            the suite's '# yaml-language-server: $schema=…' line points VS Code and JetBrains IDEs at),
            <folder>/ci/github-actions.yml and <folder>/ci/gitlab-ci.yml. The CI jobs build this paycheck's
            commit from its source (the git remote it was built from) in the official Swift image, or download a
            release when you set one in them (docs/ci.md).
            Existing files are never overwritten: init stops and names them.

            With --merchant PROVIDER, scaffolds a check of your own backend instead (docs/merchant.md):
            <folder>/contract.yaml (how PayCheck starts your backend, starts a checkout and reads an
            order: edit the lines marked EDIT), <folder>/contract.schema.json, the provider's merchant
            pack in <folder>/packs/PROVIDER, and CI jobs that run the pack against your backend.
            """))

    @Argument(help: "The folder to create.")
    var folder: String = "paycheck"

    @Option(name: .long, help: ArgumentHelp("The provider of the first suite: placetopay, mollie, khipu, yuno or mit.", valueName: "provider"))
    var provider: String = "placetopay"

    @Option(
        name: .long, help: ArgumentHelp("Scaffold a check of your own backend for this provider's merchant pack (mollie, placetopay, khipu, mit or yuno).", valueName: "provider"))
    var merchant: String?

    func validate() throws {
        guard Scaffold.smokeProviders.contains(provider) else {
            let hint = Suggest.nearest(provider, in: Scaffold.smokeProviders).map { " (did you mean '\($0)'?)" } ?? ""
            throw ValidationError("no provider '\(provider)'\(hint); --provider takes " + Scaffold.smokeProviders.joined(separator: ", "))
        }
        guard let merchant else { return }
        let packs = SuiteOptions.locations.packNames
        guard packs.contains(merchant) else {
            let hint = Suggest.nearest(merchant, in: packs).map { " (did you mean '\($0)'?)" } ?? ""
            throw ValidationError(
                packs.isEmpty
                    ? "no merchant packs here or beside the binary: run init in a PayCheck checkout, or install with scripts/install.sh"
                    : "no merchant pack for '\(merchant)'\(hint); packs: \(packs.joined(separator: ", "))")
        }
    }

    func run() throws {
        do {
            let created = try Scaffold.create(folder: folder, provider: provider, merchant: merchant, source: .current, locations: SuiteOptions.locations)
            if let warning = created.warning { Output().err(warning) }
            Output().out(created.summary)
        } catch let refusal as Scaffold.Refusal {
            Output().err("error: \(refusal)")
            throw ExitCode(2)
        } catch let missing as Scaffold.NoPack {
            throw ValidationError(missing.description)
        }
    }
}

extension PayCheckSource {
    /// The source of this binary, as the BuildInfo plugin stamped it.
    static let current = PayCheckSource(buildSource: buildSource, buildCommit: buildCommit)
}
