import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders

/// What `paycheck init` writes: a merchant's suite folder — a first suite that passes on the embedded mock and the CI
/// jobs that run it — or, for `--merchant`, a check of the merchant's own backend; never over an existing file.
package enum Scaffold {
    /// Why init wrote nothing; the description is the message after `error: `.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    /// `--merchant` names a provider with no merchant pack in the locations.
    package struct NoPack: Error, CustomStringConvertible {
        package let description: String
    }

    /// The folder init made: the lines it prints (the files, then what to do next) and the warning about the CI jobs,
    /// when they need an edit before they build PayCheck.
    package struct Created: Sendable {
        package var summary: String
        package var warning: String?
    }

    /// Writes the files of `folder`: the first suite for `provider`, or with `merchant` the check of a backend for
    /// that provider's pack (found in `locations`); the CI jobs get PayCheck from `source`.
    /// - Throws: a ``Refusal`` naming the files that exist (nothing is written), ``NoPack``, or the error of a file
    ///   that cannot be read or written.
    package static func create(folder: String, provider: String, merchant: String?, source: PayCheckSource, locations: SuiteLocations) throws -> Created {
        let files =
            try merchant.map { try merchantFiles(folder: folder, provider: $0, source: source, locations: locations) }
            ?? Self.files(folder: folder, provider: provider, source: source)
        let existing = files.map(\.path).filter { FileManager.default.fileExists(atPath: $0) }
        guard existing.isEmpty else {
            throw Refusal(description: "init would overwrite " + existing.map { "'\($0)'" }.joined(separator: ", ") + "; move them or choose another folder")
        }
        for file in files {
            let url = URL(fileURLWithPath: file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
        }
        let warning = source.warning(jobs: "\(folder)/ci")
        if let merchant {
            return Created(
                summary: (["Created:"] + files.map { "  \($0.path)" } + [
                    "", "Next (docs/merchant.md):", "  edit the lines marked EDIT in \(folder)/contract.yaml",
                    "  paycheck lint --contract \(folder)/contract.yaml \(folder)/packs/\(merchant)",
                    "  paycheck run --contract \(folder)/contract.yaml \(folder)/packs/\(merchant)   # starts your backend, runs, stops it",
                    "  copy \(folder)/ci/github-actions.yml to .github/workflows/paycheck.yml (or the GitLab job into .gitlab-ci.yml)",
                ]).joined(separator: "\n"), warning: warning)
        }
        return Created(
            summary: (["Created:"] + files.map { "  \($0.path)" } + [
                "", "Next:", "  paycheck run \(folder)/suites     # on the embedded mock",
                "  paycheck lint \(folder)/suites    # check the suites without running them",
                "  copy \(folder)/ci/github-actions.yml to .github/workflows/paycheck.yml (or the GitLab job into .gitlab-ci.yml)",
            ]).joined(separator: "\n"), warning: warning)
    }

    /// The files init writes, by path.
    static func files(folder: String, provider: String = "placetopay", source: PayCheckSource) -> [(path: String, text: String)] {
        [
            ("\(folder)/suites/\(provider)/smoke.yaml", smokeSuite(provider)),
            ("\(folder)/suites/paycheck.schema.json", SuiteSchema.jsonSchema(catalog: MockRegistry.providers)),
            ("\(folder)/ci/github-actions.yml", githubJob(folder: folder, provider: provider, source: source)),
            ("\(folder)/ci/gitlab-ci.yml", gitlabJob(folder: folder, provider: provider, source: source)),
        ]
    }

    /// The files `init --merchant PROVIDER` writes: the contract, its schema, the provider's pack (found in
    /// `locations`) and the CI jobs.
    /// - Throws: ``NoPack`` when there is no pack for `provider`, or the error of a pack file that cannot be read.
    static func merchantFiles(folder: String, provider: String, source: PayCheckSource, locations: SuiteLocations) throws -> [(path: String, text: String)] {
        guard let pack = locations.packFolder(provider) else { throw NoPack(description: "no merchant pack for '\(provider)'") }
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
        files.append(("\(folder)/ci/github-actions.yml", githubJob(folder: folder, run: command, what: "your backend against PayCheck's \(provider) mock", source: source)))
        files.append(("\(folder)/ci/gitlab-ci.yml", gitlabJob(folder: folder, run: command, what: "your backend against PayCheck's \(provider) mock", source: source)))
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
