import Foundation
import PayCheckCore
package import PayCheckProviders

/// One session a stress lifecycle drove: the resource it made, the states it saw, and what its racing duplicates got.
package struct StressSession: Sendable {
    /// The session's number, from 0.
    package var index: Int
    /// The resource's id at the provider (requestId, payment id, link id).
    package var resource: String
    /// The idempotency key its create carried, if the provider has one.
    package var idempotencyKey: String?
    /// Every state a query observed, in order, repeats dropped.
    package var history: [String] = []
    /// What went against the provider's documented behaviour inside the session (two ids for one key, two
    /// payments approved for one payer action, …).
    package var problems: [String] = []
    /// The HTTP statuses the racing duplicates got, for the report.
    package var duplicateStatuses: [Int] = []
    /// Real seconds the session's lifecycle took.
    package var seconds: Double = 0

    /// Creates a session record.
    package init(index: Int, resource: String, idempotencyKey: String? = nil) {
        self.index = index
        self.resource = resource
        self.idempotencyKey = idempotencyKey
    }

    /// Appends `state` unless it repeats the last one.
    package mutating func observe(_ state: String?) {
        guard let state else {
            self.problems.append("a query answered no state")
            return
        }
        if self.history.last != state { self.history.append(state) }
    }

    /// The last observed state.
    package var state: String? { self.history.last }
}

/// A webhook the merchant's receiver got, attributed to a session where the payload allows it.
package struct StressWebhook: Sendable {
    /// The session it belongs to, when the URL or the payload names it.
    package var index: Int?
    /// The state the payload reports, when it carries one.
    package var state: String?

    /// Creates an attribution.
    package init(index: Int?, state: String?) {
        self.index = index
        self.state = state
    }
}

/// A provider's lifecycle for the stress test and the lifecycle benchmark: what a merchant and a payer do, with
/// racing duplicates, and the provider's documented state machine to check the observed histories against.
package protocol StressLifecycle: Sendable {
    /// The provider's adapter.
    var provider: any Provider { get }
    /// The states a resource may start in.
    var initialStates: Set<String> { get }
    /// The documented transitions: state → the states it may move to.
    var transitions: [String: Set<String>] { get }
    /// How far the mock clock moves between the run and the settle phase (`31s`), or `nil`.
    var settleAdvance: String? { get }

    /// Sets the merchant's account up (notification URL, webhook subscription) before any session.
    func prepare(_ client: StressClient, hooks: String) async throws
    /// Runs session `index` through its lifecycle; `hooks` is the merchant receiver's base URL for this provider.
    func run(_ index: Int, _ client: StressClient, hooks: String) async throws -> StressSession
    /// Queries the resource again after the clock moved (expiry, reconciliation on the mock clock).
    func settle(_ session: StressSession, _ client: StressClient) async throws -> StressSession
    /// The notifications a session's history calls for, per the provider's documented webhook triggers.
    func expectedWebhooks(_ history: [String]) -> Int
    /// Which session a received webhook belongs to and which state it reports.
    func attribute(path: String, body: String, _ client: StressClient) async -> StressWebhook
}

extension StressLifecycle {
    /// Nothing to set up.
    package func prepare(_ client: StressClient, hooks: String) async throws {}
    /// No clock move.
    package var settleAdvance: String? { nil }

    /// The problems of a history against ``initialStates`` and ``transitions``; empty for a legal path.
    package func illegalSteps(_ history: [String]) -> [String] {
        guard let first = history.first else { return ["no state observed"] }
        var problems: [String] = []
        if !self.initialStates.contains(first) { problems.append("starts in \(first)") }
        for (from, to) in zip(history, history.dropFirst()) where self.transitions[from]?.contains(to) != true {
            problems.append("\(from) → \(to)")
        }
        return problems
    }

    /// The session number at the end of a receiver path `/…/<index>`.
    func trailingIndex(_ path: String) -> Int? {
        path.split(separator: "/").last.flatMap { Int($0) }
    }
}

/// Runs `body` for every index in `0..<count` with at most `width` at once, in index order of completion.
package func stressForEach<T: Sendable>(
    _ count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> T
) async throws -> [T] {
    try await withThrowingTaskGroup(of: (Int, T).self) { group in
        var results: [T?] = Array(repeating: nil, count: count)
        var next = 0
        while next < min(count, max(1, width)) {
            let index = next
            group.addTask { (index, try await body(index)) }
            next += 1
        }
        while let (index, value) = try await group.next() {
            results[index] = value
            if next < count {
                let index = next
                group.addTask { (index, try await body(index)) }
                next += 1
            }
        }
        return results.compactMap { $0 }
    }
}

/// The five built-in providers' lifecycles, by provider id.
package enum StressLifecycles {
    /// Every lifecycle, in a fixed order.
    package static let all: [any StressLifecycle] = [
        PlacetoPayStress(), KhipuStress(), MollieStress(), MITStress(), YunoStress(),
    ]

    /// The lifecycle of `id`.
    package static func named(_ id: String) -> (any StressLifecycle)? { all.first { $0.provider.id == id } }
}

/// Two copies of the same request at once: the racing duplicate.
func race<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> (T, T) {
    async let first = body()
    async let second = body()
    return try await (first, second)
}
