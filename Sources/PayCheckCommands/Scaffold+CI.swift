import PayCheckMock
import PayCheckProviders
import PayCheckRunner

/// The CI jobs `paycheck init` writes: one job gets paycheck (built from PayCheck's source at the commit of the paycheck
/// that wrote them, in the official Swift image and cached by commit, or a release downloaded and checked against its
/// SHA-256), the other runs the suites or the merchant pack. They run as written: `.ci/simulate_init_jobs.py` runs
/// their shell steps on this machine, and docs/ci.md says how.
extension Scaffold {
    /// The official Swift image the install job builds in: UBI 9 has the oldest glibc of the Swift images, so the
    /// binary runs on any glibc 2.34+ image, as a release binary does (examples/ci/release.yml).
    static let swiftImage = "swift:6.3-rhel-ubi9"

    /// The image the GitLab job runs a merchant pack in by default: the scaffold's example backend is Python.
    static let backendImage = "python:3.12-slim"

    /// Where the install job leaves paycheck (`bin/paycheck`), cached by commit and passed on as an artifact.
    static let prefix = "paycheck-prefix"

    /// The variables both jobs get paycheck with, indented for their place in the file.
    static func sourceVariables(indent: Int, source: PayCheckSource) -> String {
        let pad = String(repeating: " ", count: indent)
        let url =
            source.url.map { "PAYCHECK_SOURCE: \"\($0)\"" }
            ?? "PAYCHECK_SOURCE: \"\"   # EDIT: the git URL of PayCheck's source (the paycheck that wrote this file knows none)"
        let commit: String
        switch (source.commit, source.hadChanges) {
        case (let hash?, false): commit = "PAYCHECK_COMMIT: \"\(hash)\""
        case (let hash?, true): commit = "PAYCHECK_COMMIT: \"\(hash)\"   # the paycheck that wrote this file had uncommitted changes on top of it"
        case (nil, _): commit = "PAYCHECK_COMMIT: \"\"   # EDIT: the PayCheck commit or tag to build (the paycheck that wrote this file was built outside git)"
        }
        return [
            "# Where paycheck comes from. By default the install job builds it from PayCheck's source, PAYCHECK_SOURCE at",
            "# PAYCHECK_COMMIT (the paycheck that wrote this file), with its scripts/install.sh in the official Swift image,",
            "# and caches the build by commit. With PAYCHECK_DOWNLOAD (where PayCheck's releases are published) and",
            "# PAYCHECK_SHA256 (the release's paycheck-linux-x86_64.sha256) both set, it downloads release v$PAYCHECK_VERSION",
            "# instead and checks it against that SHA-256 before it runs.",
            url, commit,
            "PAYCHECK_VERSION: \"\(payCheckVersion)\"",
            "PAYCHECK_DOWNLOAD: \"\"",
            "PAYCHECK_SHA256: \"\"",
        ].map { pad + $0 }.joined(separator: "\n")
    }

    /// The install job's shell: the release when one is configured, else a build from source unless the cache had it.
    static func installScript(indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        return """
            if [ -n "$PAYCHECK_DOWNLOAD" ] && [ -n "$PAYCHECK_SHA256" ]; then
              mkdir -p \(prefix)/bin
              curl -fsSL --retry 3 -o \(prefix)/bin/paycheck "$PAYCHECK_DOWNLOAD/v$PAYCHECK_VERSION/paycheck-linux-x86_64"
              echo "$PAYCHECK_SHA256  \(prefix)/bin/paycheck" | sha256sum -c -
              chmod +x \(prefix)/bin/paycheck
            elif [ ! -x \(prefix)/bin/paycheck ]; then
              git clone --quiet "$PAYCHECK_SOURCE" paycheck-source
              git -C paycheck-source checkout --quiet --detach "$PAYCHECK_COMMIT"
              bash paycheck-source/scripts/install.sh "$PWD/\(prefix)"
            fi
            \(prefix)/bin/paycheck version
            """.split(separator: "\n").map { pad + $0 }.joined(separator: "\n")
    }

    /// The command a job runs, with its reports.
    static func runCommand(folder: String, run: String?) -> String {
        (run ?? "paycheck run \(folder)/suites") + " --report-junit reports/junit.xml --report-json reports/report.json --report-html reports/report.html"
    }

    /// A GitHub Actions workflow: an install job, then a job that runs the suites (or `run`, a merchant pack with a step
    /// for the backend's dependencies) and keeps the reports.
    static func githubJob(folder: String, run: String? = nil, what: String? = nil, provider: String = "placetopay", source: PayCheckSource) -> String {
        let variables = (MockRegistry.providers[provider]?.credentialFields.filter(\.required).map(\.environmentVariable) ?? []).joined(separator: " / ")
        let header =
            what.map { "# Copy to .github/workflows/paycheck.yml. Runs \($0) (a merchant pack)." }
                ?? """
                # Copy to .github/workflows/paycheck.yml. Runs the suites on PayCheck's embedded mock; for the sandbox, add
                # --target sandbox and pass \(variables) as secrets.
                """
        let backend =
            what == nil
            ? ""
            : """
                  - name: Install your backend's dependencies
                    # EDIT: your backend's runtime and dependencies (actions/setup-python, pip install -r requirements.txt, npm ci, …).
                    run: echo "Installing no backend dependencies; replace this step with your backend's install commands"

            """
        return """
            \(header)
            name: paycheck
            on: [push, pull_request]
            permissions:
              contents: read
            env:
            \(sourceVariables(indent: 2, source: source))
            jobs:
              install:
                # Builds paycheck from source in the official Swift image (the build cached by PAYCHECK_COMMIT), unless a
                # release is configured above: then it downloads the release and checks its SHA-256.
                runs-on: ubuntu-24.04
                container: \(swiftImage)
                steps:
                  - uses: actions/cache@v4
                    with:
                      path: \(prefix)
                      key: paycheck-${{ env.PAYCHECK_COMMIT }}
                  - name: Build paycheck from PayCheck's source, or download the release
                    run: |
            \(installScript(indent: 10))
                  - uses: actions/upload-artifact@v4
                    with:
                      name: paycheck
                      path: \(prefix)/bin/paycheck
              conformance:
                needs: install
                runs-on: ubuntu-24.04
                steps:
                  - uses: actions/checkout@v4
                    with:
                      persist-credentials: false
                  - uses: actions/download-artifact@v4
                    with:
                      name: paycheck
                      path: \(prefix)/bin
                  - name: Put paycheck on the PATH
                    run: |
                      chmod +x \(prefix)/bin/paycheck && echo "$PWD/\(prefix)/bin" >> "$GITHUB_PATH"
                      \(prefix)/bin/paycheck version
            \(backend)      - name: \(what == nil ? "Run the conformance suites" : "Run the merchant pack against your backend")
                    run: \(runCommand(folder: folder, run: run))
                  - name: Keep the reports
                    if: always()
                    uses: actions/upload-artifact@v4
                    with: { name: paycheck-reports, path: reports/ }

            """
    }

    /// GitLab CI jobs: `paycheck-install` (stage build) gets paycheck, `paycheck` (stage test) runs the suites (or
    /// `run`, a merchant pack in the backend's image, `BACKEND_IMAGE`) and publishes the JUnit report.
    static func gitlabJob(folder: String, run: String? = nil, what: String? = nil, provider: String = "placetopay", source: PayCheckSource) -> String {
        let image =
            what == nil
            ? "  image: ubuntu:24.04"
            : """
              image: $BACKEND_IMAGE
              variables:
                # EDIT: an image with your backend's runtime; paycheck runs in it too (it needs glibc 2.34+ and libxml2).
                BACKEND_IMAGE: \(backendImage)
            """
        let backend =
            what == nil
            ? ""
            : """
                # EDIT: your backend's dependencies (pip install -r requirements.txt, npm ci, bundle install, …).
                - echo "Installing no backend dependencies; replace this line with your backend's install commands"

            """
        return """
            # Add to .gitlab-ci.yml. Runs \(what ?? "the suites on PayCheck's embedded mock"): paycheck-install gets paycheck
            # (stage build), paycheck runs \(what == nil ? "the suites" : "the pack in your backend's image") (stage test).
            paycheck-install:
              # Builds paycheck from source in the official Swift image (the build cached by PAYCHECK_COMMIT), unless a
              # release is configured below: then it downloads the release and checks its SHA-256.
              stage: build
              image: \(swiftImage)
              variables:
            \(sourceVariables(indent: 4, source: source))
              cache:
                key: paycheck-$PAYCHECK_COMMIT
                paths: [\(prefix)/]
              script:
                - |
            \(installScript(indent: 6))
              artifacts:
                paths: [\(prefix)/bin/paycheck]
                expire_in: 1 day

            paycheck:
              stage: test
              needs: [paycheck-install]
            \(image)
              before_script:
                # paycheck needs libxml2: installed here when the image lacks it (apt-get: a Debian or Ubuntu image).
                - ldconfig -p | grep -q libxml2.so.2 || (apt-get update -qq && apt-get install -y -qq libxml2 >/dev/null)
            \(backend)    - export PATH="$PWD/\(prefix)/bin:$PATH" && paycheck version
              script:
                - \(runCommand(folder: folder, run: run))
              artifacts:
                when: always
                paths: [reports/]
                reports:
                  junit: reports/junit.xml

            """
    }
}
