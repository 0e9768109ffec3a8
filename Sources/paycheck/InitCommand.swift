import ArgumentParser
import Foundation
import PayCheckCore
import PayCheckRunner

/// `paycheck init`: scaffolds a merchant's suite folder — a first suite that passes on the embedded mock and the CI
/// jobs that run it — without overwriting anything.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a suite folder with a first PlacetoPay suite and CI job examples.",
        discussion: """
            Writes <folder>/suites/placetopay/smoke.yaml (create a session, pay it as the payer, query it:
            it passes on the embedded mock), <folder>/suites/paycheck.schema.json (the suite schema, which
            the suite's '# yaml-language-server: $schema=…' line points VS Code and JetBrains IDEs at),
            <folder>/ci/github-actions.yml and <folder>/ci/gitlab-ci.yml.
            Existing files are never overwritten: init stops and names them.
            """)

    @Argument(help: "The folder to create (default: paycheck).")
    var folder: String = "paycheck"

    func run() throws {
        let files = Self.files(folder: folder)
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
        Output().out((["Created:"] + files.map { "  \($0.path)" } + [
            "", "Next:", "  paycheck run \(folder)/suites     # on the embedded mock",
            "  paycheck lint \(folder)/suites    # check the suites without running them",
            "  copy \(folder)/ci/github-actions.yml to .github/workflows/paycheck.yml (or the GitLab job into .gitlab-ci.yml)",
        ]).joined(separator: "\n"))
    }

    /// The files init writes, by path.
    static func files(folder: String) -> [(path: String, text: String)] {
        [
            ("\(folder)/suites/placetopay/smoke.yaml", smokeSuite),
            ("\(folder)/suites/paycheck.schema.json", SuiteSchema.jsonSchema),
            ("\(folder)/ci/github-actions.yml", githubJob(folder: folder)),
            ("\(folder)/ci/gitlab-ci.yml", gitlabJob(folder: folder)),
        ]
    }

    /// A first PlacetoPay suite that passes on the embedded mock.
    static let smokeSuite = """
        # yaml-language-server: $schema=../paycheck.schema.json
        # A first conformance suite: edit it, then add your own cases. Reference: PayCheck's README.
        suite: My shop · PlacetoPay smoke test
        provider: placetopay
        vars:
          reference: "ORDER-{{ random(8) }}"
        cases:
          - name: an approved card payment ends APPROVED and maps to succeeded
            requires: [mock]
            steps:
              - call: createSession
                with:
                  payment: { reference: "{{ reference }}", description: Smoke test, amount: { currency: COP, total: 10000 } }
                  returnUrl: https://shop.example/return
                expect: { status: 200, body: { status.status: OK, requestId: { type: integer } } }
                capture: { requestId: body.requestId }
              - payer: pay
                with: { requestId: "{{ requestId }}", card: "4110760000000081" }
                expect: { outcome: succeeded }
              - call: querySession
                with: { requestId: "{{ requestId }}" }
                expect: { outcome: succeeded, body: { status.status: APPROVED } }

          - name: a wrong secret key is refused with 401 and auth code 102
            steps:
              - call: createSession
                auth: { secretKey: not-the-secret }
                with:
                  payment: { reference: "{{ reference }}-x", description: Smoke test, amount: { currency: COP, total: 10000 } }
                  returnUrl: https://shop.example/return
                expect: { status: 401, error: { class: A, code: 102 } }

        """

    /// The variables both CI jobs install the released binary with, indented for their place in the file.
    static func releaseVariables(indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        return [
            "# The PayCheck release, where its releases are published, and the SHA-256 of its paycheck-linux-x86_64",
            "# (the release's .sha256 file): the binary is checked against this pinned value before it runs.",
            "PAYCHECK_VERSION: \"\(payCheckVersion)\"",
            "PAYCHECK_DOWNLOAD: https://github.com/OWNER/paycheck/releases/download",
            "PAYCHECK_SHA256: REPLACE-WITH-THE-SHA256-OF-THE-RELEASE",
        ].map { pad + $0 }.joined(separator: "\n")
    }

    /// A GitHub Actions job that runs the suites and publishes the reports.
    static func githubJob(folder: String) -> String {
        """
        # Copy to .github/workflows/paycheck.yml. Runs the suites on PayCheck's embedded mock; for the sandbox, add
        # --target sandbox and pass PAYCHECK_PLACETOPAY_LOGIN / PAYCHECK_PLACETOPAY_SECRET_KEY as secrets.
        name: paycheck
        on: [push, pull_request]
        permissions:
          contents: read
        env:
        \(releaseVariables(indent: 2))
        jobs:
          conformance:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v4
                with:
                  persist-credentials: false
              - name: Install paycheck (one binary; or build it from source with PayCheck's scripts/install.sh)
                run: |
                  mkdir -p "$RUNNER_TEMP/bin"
                  curl -fsSL --retry 3 -o "$RUNNER_TEMP/bin/paycheck" "$PAYCHECK_DOWNLOAD/v$PAYCHECK_VERSION/paycheck-linux-x86_64"
                  echo "$PAYCHECK_SHA256  $RUNNER_TEMP/bin/paycheck" | sha256sum -c -
                  chmod +x "$RUNNER_TEMP/bin/paycheck" && echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"
              - name: Run the conformance suites
                run: paycheck run \(folder)/suites --report-junit reports/junit.xml --report-json reports/report.json --report-html reports/report.html
              - name: Keep the reports
                if: always()
                uses: actions/upload-artifact@v4
                with: { name: paycheck-reports, path: reports/ }

        """
    }

    /// A GitLab CI job that runs the suites and publishes the JUnit report.
    static func gitlabJob(folder: String) -> String {
        """
        # Add to .gitlab-ci.yml. Runs the suites on PayCheck's embedded mock.
        paycheck:
          image: ubuntu:24.04
          variables:
        \(releaseVariables(indent: 4))
          before_script:
            - apt-get update -qq && apt-get install -y -qq curl ca-certificates libxml2 >/dev/null
            - curl -fsSL --retry 3 -o /usr/local/bin/paycheck "$PAYCHECK_DOWNLOAD/v$PAYCHECK_VERSION/paycheck-linux-x86_64"
            - echo "$PAYCHECK_SHA256  /usr/local/bin/paycheck" | sha256sum -c -
            - chmod +x /usr/local/bin/paycheck
          script:
            - paycheck run \(folder)/suites --report-junit reports/junit.xml --report-json reports/report.json --report-html reports/report.html
          artifacts:
            when: always
            paths: [reports/]
            reports:
              junit: reports/junit.xml

        """
    }
}
