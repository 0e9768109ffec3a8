import Foundation
import PayCheckCore
package import PayCheckRunner

/// Puts the shard reports of one run back together (`paycheck merge`): one result with the counts, verdicts and
/// coverage the unsharded run would have had.
package enum RunMerge {
    /// Why reports cannot be merged.
    package struct Refusal: Error, CustomStringConvertible {
        /// The message.
        package var description: String
    }

    /// Merges `reports` (with the files they came from, for messages).
    ///
    /// Refused: reports of different paycheck versions, suite selections (`suiteDigest`), run ids or targets; two
    /// reports of the same shard; a shard set with shards missing (`--shard k/n` for every k of n must be there);
    /// a whole run mixed with shards.
    package static func merge(_ reports: [(file: String, result: RunResult)]) throws(Refusal) -> RunResult {
        guard let first = reports.first else { throw Refusal(description: "no reports to merge") }
        for (file, report) in reports.dropFirst() {
            if report.version != first.result.version {
                throw Refusal(description: "\(file) was written by paycheck \(report.version), \(first.file) by \(first.result.version): merge reports of one version")
            }
            if report.suiteDigest != first.result.suiteDigest {
                throw Refusal(
                    description:
                        "\(file) ran other suites (or other versions of them, or another selection) than \(first.file): suite digests \(report.suiteDigest.prefix(12)) and \(first.result.suiteDigest.prefix(12)) differ"
                )
            }
            if report.runId != first.result.runId {
                throw Refusal(description: "\(file) belongs to run '\(report.runId)', \(first.file) to run '\(first.result.runId)': merge the shards of one run")
            }
            if report.target != first.result.target {
                throw Refusal(description: "\(file) ran against '\(report.target)', \(first.file) against '\(first.result.target)'")
            }
        }
        try Self.checkShards(reports)

        var merged = first.result
        merged.suites = Self.suites(reports.map(\.result))
        merged.startedAt = reports.map(\.result.startedAt).min() ?? first.result.startedAt
        // The run's wall time: from the first shard's start to the last shard's end.
        let end = reports.map { $0.result.startedAt.addingTimeInterval($0.result.duration) }.max() ?? merged.startedAt
        merged.duration = max(0, end.timeIntervalSince(merged.startedAt))
        merged.hostname = Self.unique(reports.map(\.result.hostname)).joined(separator: ", ")
        merged.providerTables = reports.reduce(into: [:]) { tables, report in
            tables.merge(report.result.providerTables) { kept, _ in kept }
        }
        merged.warnings = Self.unique(reports.flatMap(\.result.warnings))
        merged.notChecked = Self.unique(reports.flatMap(\.result.notChecked))
        // A shard with no case is no gap when the others together selected some.
        if merged.suites.contains(where: { !$0.cases.isEmpty }) { merged.notChecked.removeAll { $0 == RunResult.nothingSelected } }
        merged.allowEmpty = reports.contains { $0.result.allowEmpty }
        merged.providersNotChecked = Self.unique(reports.flatMap(\.result.providersNotChecked))
        merged.requireAllProviders = reports.contains { $0.result.requireAllProviders }
        merged.interrupted = reports.contains { $0.result.interrupted }
        merged.shard = nil
        merged.mergedFrom = reports.reduce(0) { $0 + max(1, $1.result.mergedFrom) }
        return merged
    }

    /// Every shard of one `n` exactly once.
    private static func checkShards(_ reports: [(file: String, result: RunResult)]) throws(Refusal) {
        let shards = reports.compactMap { report in report.result.shard.map { (report.file, $0) } }
        guard !shards.isEmpty else {
            if reports.count > 1 {
                throw Refusal(description: "none of the reports is a shard (--shard k/n): merging whole runs would count their cases twice")
            }
            return
        }
        if let whole = reports.first(where: { $0.result.shard == nil }) {
            throw Refusal(description: "\(whole.file) is a whole run, the others are shards: merge the shards of one run only")
        }
        let count = shards[0].1.count
        var seen: [Int: String] = [:]
        for (file, shard) in shards {
            guard shard.count == count else {
                throw Refusal(description: "\(file) is shard \(shard.index)/\(shard.count), \(shards[0].0) is one of \(count): the shards of one run share n")
            }
            if let other = seen[shard.index] {
                throw Refusal(description: "\(file) and \(other) are both shard \(shard.index)/\(count)")
            }
            seen[shard.index] = file
        }
        let missing = (1...count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw Refusal(
                description:
                    "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing: every shard of the run is needed for its verdict")
        }
    }

    /// The suites of every report, each file once, cases in the unsharded plan's order. Shards are dealt
    /// round-robin (`RunPlan`: case ordinal `o` goes to shard `o mod n + 1`), so the `i`-th case of shard `k` had
    /// ordinal `i·n + k − 1`: sorting by it restores the plan, suites included.
    private static func suites(_ results: [RunResult]) -> [SuiteResult] {
        var placed: [(ordinal: Int, suite: SuiteResult, testCase: CaseResult)] = []
        for (position, result) in results.enumerated() {
            let (index, count) = result.shard ?? (position + 1, results.count)
            var local = 0
            for suite in result.suites {
                for testCase in suite.cases {
                    placed.append((local * count + index - 1, suite, testCase))
                    local += 1
                }
            }
        }
        placed.sort { $0.ordinal < $1.ordinal }
        // A suite is its file and its name: a file with rows holds several suites.
        struct SuiteKey: Hashable { var file: String, name: String }
        var order: [SuiteKey] = []
        var bySuite: [SuiteKey: SuiteResult] = [:]
        for item in placed {
            let key = SuiteKey(file: item.suite.file, name: item.suite.name)
            if var known = bySuite[key] {
                known.cases.append(item.testCase)
                known.startedAt = min(known.startedAt, item.suite.startedAt)
                bySuite[key] = known
            } else {
                var suite = item.suite
                suite.cases = [item.testCase]
                bySuite[key] = suite
                order.append(key)
            }
        }
        return order.compactMap { bySuite[$0] }
    }

    /// `items` without repeats, first occurrences kept.
    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
