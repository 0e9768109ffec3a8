import Foundation
import PayCheckCore
package import PayCheckRunner

/// Failure annotations for CI systems: GitHub Actions workflow commands and GitLab's code-quality report.
package enum CIAnnotations {
    /// Which annotations `--annotations` prints.
    package enum Style: String, Sendable, CaseIterable {
        /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`).
        case github
        /// None.
        case none
    }

    /// The style when `--annotations` is not given: `github` inside GitHub Actions (`GITHUB_ACTIONS=true`).
    package static func defaultStyle(environment: [String: String]) -> Style {
        environment["GITHUB_ACTIONS"] == "true" ? .github : .none
    }

    /// One `::error` line per failed or errored case, at the line of its failed expectation (GitHub's
    /// "workflow commands": properties escape `%`, CR, LF, `:` and `,`; the message escapes `%`, CR and LF).
    package static func github(_ result: RunResult) -> String {
        var out = ""
        for suite in result.suites {
            for testCase in suite.cases where testCase.verdict == .failed || testCase.verdict == .error {
                let location = testCase.reportLocation
                let kind = testCase.verdict == .failed ? "not conformant" : "could not run"
                let title = "PayCheck \(kind): \(suite.name) › \(testCase.name)"
                out += "::error file=\(property(location.file)),line=\(location.line),col=\(location.column)"
                out += ",title=\(property(title))::\(message(testCase.problemSummary))\n"
            }
        }
        return out
    }

    /// GitLab's code-quality report (the Code Climate subset GitLab reads): one issue per failed or errored case
    /// with `description`, `check_name`, `fingerprint` (stable across runs: file and case name), `severity`
    /// (`major` for a failure, `critical` for an error) and `location.path` / `location.lines.begin`.
    package static func codeQuality(_ result: RunResult) -> String {
        var issues: [Value] = []
        for suite in result.suites {
            for testCase in suite.cases where testCase.verdict == .failed || testCase.verdict == .error {
                let location = testCase.reportLocation
                issues.append(
                    .object([
                        "description": .string("\(suite.name) › \(testCase.name): \(testCase.problemSummary)"),
                        "check_name": .string(testCase.verdict == .failed ? "paycheck-conformance" : "paycheck-could-not-run"),
                        "fingerprint": .string(StableDigest.of(["paycheck", suite.file, suite.name, testCase.name])),
                        "severity": .string(testCase.verdict == .failed ? "major" : "critical"),
                        "location": .object([
                            "path": .string(location.file),
                            "lines": .object(["begin": .int(location.line)]),
                        ]),
                    ]))
            }
        }
        return JSONText.encode(.array(issues), pretty: true) + "\n"
    }

    private static func message(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func property(_ text: String) -> String {
        message(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
