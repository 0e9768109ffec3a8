import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckReports
import PayCheckRunner
import PayCheckTestSupport
import Testing

/// Sharding and merging, CI annotations, the code-quality report and `--baseline` (the CI-fit issue).
@Suite("CI fit: merge, annotations, baseline")
struct CIFitTests {
    /// The built-in suites of this checkout.
    static let suitesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Suites").path

    static func builtIn() throws -> [Suite] {
        let loaded = SuiteLoader(catalog: MockRegistry.providers).load(paths: [suitesFolder])
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics.map(\.description))")
        return loaded.suites
    }

    static func run(_ suites: [Suite], shard: (Int, Int)? = nil, runId: String = "run-1") async throws -> RunResult {
        var configuration = RunConfiguration()
        configuration.shard = shard.map { (index: $0.0, count: $0.1) }
        configuration.runId = runId
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn, configuration: configuration)
        return try await run.run(suites).0
    }

    /// A report as CI keeps it: written to JSON and read back.
    static func roundTrip(_ result: RunResult, _ file: String) throws -> (file: String, result: RunResult) {
        (file, try JSONReportReader.read(JSONReporter.render(result), file: file))
    }

    static func verdicts(_ result: RunResult) -> [String] {
        result.suites.flatMap { suite in suite.cases.map { "\(suite.file) › \($0.name) = \($0.verdict.rawValue)" } }
    }

    @Test("the built-in suites sharded 3 ways and merged give the counts, verdicts, order and coverage of one run")
    func shardsMergeToTheWholeRun() async throws {
        let suites = try Self.builtIn()
        let whole = try await Self.run(suites)
        var shards: [(file: String, result: RunResult)] = []
        for k in 1...3 {
            let shard = try await Self.run(suites, shard: (k, 3))
            #expect(shard.shard?.index == k && shard.shard?.count == 3)
            #expect(shard.suiteDigest == whole.suiteDigest, "every shard shares the selection digest")
            #expect(shard.counts.total < whole.counts.total)
            shards.append(try Self.roundTrip(shard, "shard-\(k).json"))
        }
        let merged = try RunMerge.merge(shards.reversed())
        #expect(merged.counts == whole.counts)
        #expect(Self.verdicts(merged) == Self.verdicts(whole))
        #expect(merged.exitCode == whole.exitCode)
        #expect(merged.mergedFrom == 3 && merged.shard == nil)
        let coverage = { (result: RunResult) in JSONReporter.value(result)["coverage"] }
        #expect(coverage(merged) == coverage(whole))
        let junit = JUnitReporter.render(merged)
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == whole.counts.total)
    }

    @Test("a merge refuses missing or repeated shards, other suites, other runs and whole runs mixed with shards")
    func mergeRefusals() async throws {
        let suites = try Self.builtIn().filter { $0.file.contains("examples") }
        let one = try Self.roundTrip(try await Self.run(suites, shard: (1, 2)), "a.json")
        let two = try Self.roundTrip(try await Self.run(suites, shard: (2, 2)), "b.json")
        #expect(throws: RunMerge.Refusal.self) { try RunMerge.merge([one]) }
        #expect(throws: RunMerge.Refusal.self) { try RunMerge.merge([one, one]) }
        let whole = try Self.roundTrip(try await Self.run(suites), "whole.json")
        #expect(throws: RunMerge.Refusal.self) { try RunMerge.merge([one, two, whole]) }
        let otherRun = try Self.roundTrip(try await Self.run(suites, shard: (2, 2), runId: "run-2"), "c.json")
        #expect(throws: RunMerge.Refusal.self) { try RunMerge.merge([one, otherRun]) }
        var edited = suites
        edited[0].sourceDigest = "another version of the file"
        let otherSuites = try Self.roundTrip(try await Self.run(edited, shard: (2, 2)), "d.json")
        do {
            _ = try RunMerge.merge([one, otherSuites])
            Issue.record("merged reports of different suites")
        } catch {
            #expect(error.description.contains("ran other suites"))
        }
        #expect(try RunMerge.merge([two, one]).counts == whole.result.counts)
    }

    static let failing = """
        suite: CI fit · a failing expectation
        cases:
          - name: the echo answers 200, not 201
            requires: [mock]
            steps:
              - http: { method: GET, url: "{{ mock.url }}/__paycheck/echo/ci" }
                expect:
                  status: 201
          - name: this one passes
            requires: [mock]
            steps:
              - http: { method: GET, url: "{{ mock.url }}/__paycheck/echo/ci" }
                expect: { status: 200 }
        """

    @Test("GitHub annotations: one ::error line per failed case, at the line of the failed expectation")
    func githubAnnotations() async throws {
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn)
        let (result, _) = try await run.run(try run.load([("ci/failing.yaml", Self.failing)]))
        let lines = CIAnnotations.github(result).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("::error file=ci/failing.yaml,line=8,col=") == true, "\(lines)")
        #expect(lines.first?.contains("title=PayCheck not conformant%3A CI fit · a failing expectation › the echo answers 200%2C not 201") == true)
        #expect(lines.first?.contains("::") == true && lines.first?.hasSuffix("status: expected 201, got 200") == true)
        #expect(CIAnnotations.defaultStyle(environment: ["GITHUB_ACTIONS": "true"]) == .github)
        #expect(CIAnnotations.defaultStyle(environment: [:]) == .none)

        let quality = try #require(JSONText.parse(CIAnnotations.codeQuality(result))?.arrayValue)
        #expect(quality.count == 1)
        #expect(quality.first?["location"]?["path"] == "ci/failing.yaml")
        #expect(quality.first?["location"]?["lines"]?["begin"] == .int(8))
        #expect(quality.first?["severity"] == "major")
        let junit = JUnitReporter.render(result, locations: true)
        #expect(junit.contains(#"file="ci/failing.yaml" line="8""#))
        #expect(!JUnitReporter.render(result).contains(#"line=""#), "the default JUnit has no file/line on test cases")
    }

    @Test("--baseline names exactly the cases whose verdict changed, and --fail-on new-failures gates on them only")
    func baseline() async throws {
        let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn)
        let before = try await run.run(try run.load([("ci/failing.yaml", Self.failing)])).0
        let changed =
            Self.failing
            .replacingOccurrences(of: "status: 201", with: "status: 200")
            .replacingOccurrences(of: "expect: { status: 200 }", with: "expect: { status: 204 }")
            + "\n  - name: a new case\n    requires: [mock]\n    steps:\n      - http: { method: GET, url: \"{{ mock.url }}/__paycheck/echo/ci\" }\n"
        var after = try await run.run(try run.load([("ci/failing.yaml", changed)])).0
        let comparison = BaselineComparison(file: "before.json", current: after, previous: try Self.roundTrip(before, "before.json").result)
        #expect(comparison.newlyFailing.map(\.key.name) == ["this one passes"])
        #expect(comparison.newlyPassing.map(\.key.name) == ["the echo answers 200, not 201"])
        #expect(comparison.added.map(\.key.name) == ["a new case"])
        #expect(comparison.removed.isEmpty)
        after.baseline = comparison
        #expect(after.exitCode == 1)
        after.failOn = .newFailures
        #expect(after.exitCode == 1, "a newly failing case fails the gate")

        var same = before
        same.baseline = BaselineComparison(file: "before.json", current: before, previous: before)
        same.failOn = .newFailures
        #expect(same.baseline?.isEmpty == true)
        #expect(same.exitCode == 0, "a failure that was already failing does not fail a new-failures gate")
        #expect(same.verdictWord == "no new failures")
        let summary = ConsoleReporter(write: { _ in }).summary(same)
        #expect(summary.contains("exit 0: no new failures (1 case failing in the baseline too, forgiven by --fail-on new-failures)"), "\(summary)")
        #expect(!summary.contains("no failures or errors"))
        let json = JSONReporter.value(after)
        #expect(json["baseline"]?["newlyFailing"]?.arrayValue?.count == 1)
    }
}
