import Foundation
import PayCheckCommands
import PayCheckCore
import PayCheckMock
import PayCheckRunner
import PayCheckTestSupport
import Testing

@Suite("init")
struct ScaffoldTests {
    /// A source a CI runner can clone, at a commit.
    static let source = PayCheckSource(url: "https://git.example/paycheck.git", commit: "abc123")

    /// The packs of this repository.
    static var packs: SuiteLocations {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return SuiteLocations(folder: root.path)
    }

    @Test("init scaffolds a first suite, the suite schema and CI jobs, and never overwrites")
    func scaffold() throws {
        let scratch = try Scratch()
        let shop = scratch.path("shop")
        let created = try Scaffold.create(folder: shop, provider: "placetopay", merchant: nil, source: Self.source, locations: Self.packs)
        #expect(created.warning == nil)
        #expect(created.summary.hasPrefix("Created:\n  \(shop)/suites/placetopay/smoke.yaml\n"), "\(created.summary)")
        #expect(created.summary.contains("  paycheck run \(shop)/suites     # on the embedded mock"))
        #expect(try scratch.read("shop/ci/github-actions.yml").contains("paycheck run \(shop)/suites"))
        #expect(try scratch.read("shop/ci/gitlab-ci.yml").contains("junit: reports/junit.xml"))
        #expect(try scratch.read("shop/suites/placetopay/smoke.yaml").hasPrefix("# yaml-language-server: $schema=../paycheck.schema.json\n"))
        #expect(try scratch.read("shop/suites/paycheck.schema.json") == SuiteSchema.jsonSchema(catalog: MockRegistry.providers))
        // The suites' jobs have no backend: no backend image, no step for its dependencies.
        #expect(try !scratch.read("shop/ci/gitlab-ci.yml").contains("BACKEND_IMAGE") && !scratch.read("shop/ci/github-actions.yml").contains("backend"))
        try scratch.write("other/ci/gitlab-ci.yml", "mine")
        #expect(
            performing: { try Scaffold.create(folder: shop, provider: "placetopay", merchant: nil, source: Self.source, locations: Self.packs) },
            throws: { error in
                "\(error)"
                    == "init would overwrite '\(shop)/suites/placetopay/smoke.yaml', '\(shop)/suites/paycheck.schema.json', '\(shop)/ci/github-actions.yml', '\(shop)/ci/gitlab-ci.yml'; move them or choose another folder"
            })
        #expect(throws: Scaffold.Refusal.self) { try Scaffold.create(folder: scratch.path("other"), provider: "mollie", merchant: nil, source: Self.source, locations: Self.packs) }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("other/suites")), "nothing is written when one file exists")
    }

    @Test("each provider's first suite is clean under lint and passes on the embedded mock", arguments: Scaffold.smokeProviders)
    func smokeSuitePasses(provider: String) async throws {
        let scratch = try Scratch()
        _ = try Scaffold.create(folder: scratch.path(provider), provider: provider, merchant: nil, source: Self.source, locations: Self.packs)
        let loaded = SuiteLoader(catalog: MockRegistry.providers).load(paths: [scratch.path("\(provider)/suites")])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn)
        let (result, _) = try await run.run(loaded.suites)
        #expect(result.counts.passed == 2 && result.exitCode == 0, "\(provider): \(result.counts)")
    }

    @Test("init --merchant writes the contract, its schema, the pack with its schema line rewritten, and jobs that run the pack against the backend")
    func merchant() throws {
        let scratch = try Scratch()
        let shop = scratch.path("shop")
        let created = try Scaffold.create(folder: shop, provider: "placetopay", merchant: "mollie", source: Self.source, locations: Self.packs)
        #expect(created.summary.contains("  paycheck lint --contract \(shop)/contract.yaml \(shop)/packs/mollie"), "\(created.summary)")
        let contract = try scratch.read("shop/contract.yaml")
        #expect(contract.hasPrefix("# yaml-language-server: $schema=contract.schema.json\n") && contract.contains("MOLLIE_URL: \"{{ mock.url }}/mollie\""))
        #expect(contract.contains("MOLLIE_API_KEY: \"{{ credentials.mollie.apiKey }}\""), "\(contract)")
        let pack = try FileManager.default.contentsOfDirectory(atPath: scratch.path("shop/packs/mollie")).filter { $0.hasSuffix(".yaml") }
        #expect(!pack.isEmpty)
        for name in pack { #expect(try !scratch.read("shop/packs/mollie/\(name)").contains("../../Suites/paycheck.schema.json")) }
        let github = try scratch.read("shop/ci/github-actions.yml")
        let gitlab = try scratch.read("shop/ci/gitlab-ci.yml")
        let command = "paycheck run --contract \(shop)/contract.yaml \(shop)/packs/mollie --fail-on findings:error"
        for job in [github, gitlab] {
            #expect(job.contains(command) && job.contains("PAYCHECK_SOURCE: \"https://git.example/paycheck.git\"") && job.contains("PAYCHECK_COMMIT: \"abc123\""))
            #expect(job.contains("PAYCHECK_DOWNLOAD: \"\"") && job.contains("PAYCHECK_SHA256: \"\"") && !job.contains("OWNER") && !job.contains("REPLACE-WITH"))
            #expect(job.contains("bash paycheck-source/scripts/install.sh") && job.contains("sha256sum -c -") && job.contains("swift:6.3-rhel-ubi9"))
            #expect(job.contains("# EDIT: your backend's") && job.contains("Installing no backend dependencies"))
        }
        #expect(gitlab.contains("image: $BACKEND_IMAGE") && gitlab.contains("BACKEND_IMAGE: python:3.12-slim") && gitlab.contains("key: paycheck-$PAYCHECK_COMMIT"))
        #expect(github.contains("key: paycheck-${{ env.PAYCHECK_COMMIT }}") && github.contains("container: swift:6.3-rhel-ubi9"))
        #expect(throws: Scaffold.NoPack.self) {
            try Scaffold.create(folder: scratch.path("x"), provider: "placetopay", merchant: "nopay", source: Self.source, locations: Self.packs)
        }
    }

    @Test(
        "the CI jobs say what to edit when the binary knows no source or commit, and name uncommitted changes",
        arguments: [
            (PayCheckSource(buildSource: "", buildCommit: "unknown"), "knows no git remote", "PAYCHECK_COMMIT: \"\"   # EDIT:"),
            (PayCheckSource(buildSource: "/home/me/paycheck", buildCommit: "abc123"), "knows no git remote", "PAYCHECK_SOURCE: \"\"   # EDIT:"),
            (PayCheckSource(buildSource: "https://git.example/p.git", buildCommit: "abc123+changes"), "with uncommitted changes", "uncommitted changes on top of it"),
        ])
    func sourceWarnings(source: PayCheckSource, warning: String, line: String) throws {
        let scratch = try Scratch()
        let created = try Scaffold.create(folder: scratch.path("shop"), provider: "placetopay", merchant: nil, source: source, locations: Self.packs)
        #expect(created.warning?.contains(warning) == true, "\(created.warning ?? "")")
        #expect(created.warning?.split(separator: "\n").count == 1, "one line of warning")
        for job in ["shop/ci/github-actions.yml", "shop/ci/gitlab-ci.yml"] { #expect(try scratch.read(job).contains(line)) }
    }
}
