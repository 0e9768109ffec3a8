import Foundation
import PayCheckCore

/// Notices when every case of a suite has finished, so the console can print the suite's line, and hands
/// finished suites out in plan order (a suite that finishes early waits for the suites before it).
struct Tracker {
    /// Cases not yet finished, by suite index.
    var remaining: [Int: Int] = [:]
    /// Finished case results, by suite index then plan item index.
    var done: [Int: [Int: CaseResult]] = [:]
    /// Suites that finished but wait for an earlier one, by suite index.
    var waiting: [Int: SuiteResult] = [:]
    /// The suite indices that have cases, in plan order.
    var order: [Int] = []
    /// How many of ``order`` were handed out.
    var handedOut = 0
    /// The plan being run.
    let plan: RunPlan

    /// Starts tracking `plan`.
    init(plan: RunPlan) {
        self.plan = plan
        for item in plan.items {
            if remaining[item.suiteIndex] == nil { order.append(item.suiteIndex) }
            remaining[item.suiteIndex, default: 0] += 1
        }
    }

    /// Records the result of plan item `index`; returns the suites now finished, in plan order.
    mutating func finish(_ index: Int, _ result: CaseResult) -> [SuiteResult] {
        let suiteIndex = plan.items[index].suiteIndex
        done[suiteIndex, default: [:]][index] = result
        remaining[suiteIndex, default: 1] -= 1
        if remaining[suiteIndex] == 0, let cases = done.removeValue(forKey: suiteIndex) {
            let suite = plan.suites[suiteIndex]
            let ordered = cases.keys.sorted().compactMap { cases[$0] }
            waiting[suiteIndex] = SuiteResult(of: suite, cases: ordered, startedAt: ordered.map(\.startedAt).min() ?? Date())
        }
        var finished: [SuiteResult] = []
        while handedOut < order.count, let suite = waiting.removeValue(forKey: order[handedOut]) {
            finished.append(suite)
            handedOut += 1
        }
        return finished
    }
}
