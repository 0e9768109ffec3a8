import ArgumentParser
import Foundation
import PayCheckCommands
import PayCheckCore
import PayCheckMock
import PayCheckRunner
import PayCheckProviders

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
        guard Self.smokeProviders.contains(provider) else {
            let hint = Suggest.nearest(provider, in: Self.smokeProviders).map { " (did you mean '\($0)'?)" } ?? ""
            throw ValidationError("no provider '\(provider)'\(hint); --provider takes " + Self.smokeProviders.joined(separator: ", "))
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
        let files = try merchant.map { try Self.merchantFiles(folder: folder, provider: $0) } ?? Self.files(folder: folder, provider: provider)
        let existing = files.map(\.path).filter { FileManager.default.fileExists(atPath: $0) }
        guard existing.isEmpty else {
            Output().err("error: init would overwrite " + existing.map { "'\($0)'" }.joined(separator: ", ") + "; move them or choose another folder")
            throw ExitCode(2)
        }
        for file in files {
            let url = URL(fileURLWithPath: file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
        }
        if let warning = PayCheckSource.current.warning(jobs: "\(folder)/ci") { Output().err(warning) }
        if let merchant {
            Output().out(
                (["Created:"] + files.map { "  \($0.path)" } + [
                    "", "Next (docs/merchant.md):", "  edit the lines marked EDIT in \(folder)/contract.yaml",
                    "  paycheck lint --contract \(folder)/contract.yaml \(folder)/packs/\(merchant)",
                    "  paycheck run --contract \(folder)/contract.yaml \(folder)/packs/\(merchant)   # starts your backend, runs, stops it",
                    "  copy \(folder)/ci/github-actions.yml to .github/workflows/paycheck.yml (or the GitLab job into .gitlab-ci.yml)",
                ]).joined(separator: "\n"))
            return
        }
        Output().out(
            (["Created:"] + files.map { "  \($0.path)" } + [
                "", "Next:", "  paycheck run \(folder)/suites     # on the embedded mock",
                "  paycheck lint \(folder)/suites    # check the suites without running them",
                "  copy \(folder)/ci/github-actions.yml to .github/workflows/paycheck.yml (or the GitLab job into .gitlab-ci.yml)",
            ]).joined(separator: "\n"))
    }

    /// The files init writes, by path.
    static func files(folder: String, provider: String = "placetopay") -> [(path: String, text: String)] {
        [
            ("\(folder)/suites/\(provider)/smoke.yaml", smokeSuite(provider)),
            ("\(folder)/suites/paycheck.schema.json", SuiteSchema.jsonSchema(catalog: MockRegistry.providers)),
            ("\(folder)/ci/github-actions.yml", githubJob(folder: folder, provider: provider)),
            ("\(folder)/ci/gitlab-ci.yml", gitlabJob(folder: folder, provider: provider)),
        ]
    }

    /// The files `init --merchant PROVIDER` writes: the contract, its schema, the provider's pack and the CI jobs.
    /// - Throws: when the pack cannot be read.
    static func merchantFiles(folder: String, provider: String) throws -> [(path: String, text: String)] {
        guard let pack = SuiteOptions.locations.packFolder(provider) else { throw ValidationError("no merchant pack for '\(provider)'") }
        let packFiles = try FileManager.default.contentsOfDirectory(atPath: pack).filter { $0.hasSuffix(".yaml") }.sorted()
        var files: [(path: String, text: String)] = [
            ("\(folder)/contract.yaml", contractTemplate(provider: provider)),
            ("\(folder)/contract.schema.json", ContractSchema.jsonSchema),
            ("\(folder)/paycheck.schema.json", SuiteSchema.jsonSchema(catalog: MockRegistry.providers)),
        ]
        for name in packFiles {
            let text = try String(contentsOfFile: pack + "/" + name, encoding: .utf8)
                .replacingOccurrences(of: "$schema=../../Suites/paycheck.schema.json", with: "$schema=../../paycheck.schema.json")
            files.append(("\(folder)/packs/\(provider)/\(name)", text))
        }
        let command = "paycheck run --contract \(folder)/contract.yaml \(folder)/packs/\(provider) --fail-on findings:error"
        files.append(("\(folder)/ci/github-actions.yml", githubJob(folder: folder, run: command, what: "your backend against PayCheck's \(provider) mock")))
        files.append(("\(folder)/ci/gitlab-ci.yml", gitlabJob(folder: folder, run: command, what: "your backend against PayCheck's \(provider) mock")))
        return files
    }

    /// A contract for a backend integrating `provider`, to edit where it says EDIT.
    static func contractTemplate(provider: String) -> String {
        let credentials = MockRegistry.providers[provider]?.credentialFields.map(\.name) ?? []
        let prefix = provider.uppercased()
        var env = [
            "      PORT: \"{{ port }}\"   # EDIT: the variable your backend reads its port from ({{ port }}: a free port)",
            "      \(prefix)_URL: \"{{ mock.url }}/\(provider)\"   # EDIT: where your backend reads \(provider)'s base URL",
        ]
        for field in credentials {
            let name = field.unicodeScalars.reduce("") { text, scalar in
                text + (CharacterSet.uppercaseLetters.contains(scalar) ? "_" : "") + String(scalar).uppercased()
            }
            env.append("      \(prefix)_\(name): \"{{ credentials.\(provider).\(field) }}\"   # EDIT: the variable of this credential")
        }
        // Yuno's payment is made from the app's SDK token, which the app hands the backend (docs/merchant.md).
        let pay =
            provider != "yuno"
            ? ""
            : """
            pay:
              # EDIT: how the app hands your backend the one-time token Yuno's SDK made ({{ token }}), so it creates the payment.
              request: { method: POST, url: "/orders/{{ order.id }}/pay", json: { token: "{{ token }}" } }

            """
        // Where the provider notifies the backend: set in the account (installed by the run), or sent by the backend.
        let notification =
            MockRegistry.providers[provider]?.contractNotificationURLUnused.map { unused in
                "  \(provider): {}   # no notificationUrl here: \(unused)"
            } ?? """
                  \(provider):
                    notificationUrl: "http://127.0.0.1:{{ port }}/webhooks/\(provider)"   # EDIT: where \(provider) notifies your backend (an account setting)
                """
        // Yuno has no return page: the app reports the SDK's result to the backend (docs/merchant.md).
        let returnComment =
            provider == "yuno"
            ? "# EDIT: where the app tells your backend what Yuno's SDK reported (remove 'return:' if it does not)"
            : "# EDIT: the page the shopper comes back to (remove 'return:' if there is none)"
        return """
            # yaml-language-server: $schema=contract.schema.json
            # How PayCheck reaches your backend (docs/merchant.md). Edit the lines marked EDIT, then:
            #   paycheck lint --contract <this file> <the pack folder>
            #   paycheck run --contract <this file> <the pack folder>
            # PayCheck starts the backend with the variables below, plays \(provider) (its mock) and the shopper, and
            # judges the backend by what it does and what it sends.
            contract: my-shop   # EDIT: your backend's name
            backend:
              url: "http://127.0.0.1:{{ port }}"
              start:
                command: ./start-backend.sh   # EDIT: how to start your backend (run with /bin/sh -c in 'directory')
                directory: ..                 # relative to this file
                env:
            \(env.joined(separator: "\n"))
                health: /health               # EDIT: a path that answers 2xx once the backend is up
                timeout: 30s
            checkout:
              # EDIT: how the shopper's app asks your backend for a checkout; {{ provider }} and the pack's values
              # ({{ amount }}, {{ currency }}, {{ description }}) are in scope.
              request:
                method: POST
                url: /orders
                json: { provider: "{{ provider }}", amount: "{{ amount }}", currency: "{{ currency }}", description: "{{ description }}" }
              order: id                 # EDIT: where the order id is in the answer
              checkoutUrl: checkoutUrl  # optional: where the checkout URL is
            order:
              request: { method: GET, url: "/orders/{{ order.id }}" }   # EDIT: how to read an order
              state: status             # EDIT: where the order's state is
              # EDIT: each of your backend's states, mapped to PayCheck's outcomes.
              states: { open: pending, pending: pending, paid: succeeded, failed: declined, canceled: canceled, expired: expired }
              fulfilments: fulfilments  # optional: a count of fulfilments (goods shipped), to catch double fulfilment
            return:
              request: { method: GET, url: "/return/{{ order.id }}" }   \(returnComment)
            \(pay)providers:
            \(notification)

            """
    }
}

extension PayCheckSource {
    /// The source of this binary, as the BuildInfo plugin stamped it.
    static let current = PayCheckSource(buildSource: buildSource, buildCommit: buildCommit)
}
