import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import PayCheckCore
import PayCheckProviders
import PayCheckRunner
import PayCheckSession
import PayCheckTestSupport
import Synchronization
import Testing

@testable import PayCheckMock

/// A merchant's webhook endpoint for the stress test: answers 200 to every POST under `/hooks/` and records it.
final class StressReceiver: Sendable {
    let received = Mutex<[(path: String, body: String)]>([])
    let (portStream, ports) = AsyncStream.makeStream(of: Int.self)

    var application: some ApplicationProtocol {
        let router = Router()
        router.post("/hooks/**") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            self.received.withLock { $0.append((request.uri.path, String(buffer: body))) }
            return .ok
        }
        var logger = Logger(label: "stress-receiver")
        logger.logLevel = .critical
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in self.ports.yield(channel.localAddress?.port ?? 0) }, logger: logger)
    }
}

/// Many concurrent sessions per provider through their lifecycles on the real mock host (a socket), with racing
/// duplicates — the same create under one idempotency key (Mollie, Yuno), the same payer action twice at once, the
/// same webhook delivered twice (a `duplicate` webhook fault) — and the invariants afterwards. Small by default;
/// `PAYCHECK_STRESS_SESSIONS=2000` (and `PAYCHECK_STRESS_CONCURRENCY`) for the large run.
@Suite("Stress: concurrent lifecycles with racing duplicates", .serialized, .timeLimit(.minutes(10)))
struct StressTests {
    static let sessions = ProcessInfo.processInfo.environment["PAYCHECK_STRESS_SESSIONS"].flatMap { Int($0) }.map { max(1, $0) } ?? 50
    static let width = ProcessInfo.processInfo.environment["PAYCHECK_STRESS_CONCURRENCY"].flatMap { Int($0) }.map { max(1, $0) } ?? 32

    /// A fresh mock of `id` and the number of resources in its state (the ground truth for lost or duplicated ones).
    static func mock(_ id: String) -> (any ProviderMock, @Sendable () -> Int) {
        switch id {
        case "placetopay":
            let mock = PlacetoPayMock()
            return (mock, { mock.store.withState { $0.sessions.count } })
        case "khipu":
            let mock = KhipuMock()
            return (mock, { mock.store.withState { $0.payments.count } })
        case "mollie":
            let mock = MollieMock()
            return (mock, { mock.store.withState { $0.payments.count } })
        case "mit":
            let mock = MITMock()
            return (mock, { mock.state.withState { $0.links.count } })
        default:
            let mock = YunoMock()
            return (mock, { mock.store.withState { $0.payments.count } })
        }
    }

    @Test("every provider's sessions keep their invariants under concurrency", arguments: ["placetopay", "khipu", "mollie", "mit", "yuno"])
    func stress(_ id: String) async throws {
        // `PAYCHECK_STRESS_PROVIDERS=mit,yuno` runs only those (a large run of one provider).
        if let only = ProcessInfo.processInfo.environment["PAYCHECK_STRESS_PROVIDERS"], !only.split(separator: ",").contains(Substring(id)) {
            return
        }
        let lifecycle = try #require(StressLifecycles.named(id))
        let (mock, resourceCount) = Self.mock(id)
        let count = Self.sessions
        let width = Self.width
        let duplicates = max(1, count / 10)
        let receiver = StressReceiver()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await receiver.application.runService(gracefulShutdownSignals: []) }
            var ports = receiver.portStream.makeAsyncIterator()
            let port = try #require(await ports.next())
            try await HTTPClient.withHTTPClient(configuration: StressClient.configuration(connections: width)) { http in
                let host = MockHost(providers: [mock], outbound: AsyncOutboundHTTP(client: http))
                try await withRunningMock(host) { base in
                    let client = StressClient(client: http, baseURL: base)
                    let hooks = "http://127.0.0.1:\(port)/hooks/\(id)"
                    try await lifecycle.prepare(client, hooks: hooks)
                    // The same webhook delivered twice: the next `duplicates` notifications of the provider.
                    try await client.control("faults", ["kind": "duplicate", "provider": .string(id), "count": .int(duplicates)])
                    let start = ContinuousClock.now
                    var sessions = try await stressForEach(count, width: width) { index in
                        let began = ContinuousClock.now
                        var session = try await lifecycle.run(index, client, hooks: hooks)
                        session.seconds = Self.seconds(ContinuousClock.now - began)
                        return session
                    }
                    let elapsed = Self.seconds(ContinuousClock.now - start)
                    if let advance = lifecycle.settleAdvance { try await client.control("clock", ["advance": .string(advance)]) }
                    let ran = sessions
                    sessions = try await stressForEach(count, width: width) { try await lifecycle.settle(ran[$0], client) }
                    let log = try await client.send("GET", ControlAPI.path("webhooks") + "?provider=\(id)")
                    let attempts = JSONText.parse(log.text)?.arrayValue ?? []
                    let received = receiver.received.withLock { $0 }
                    var webhooks: [StressWebhook] = []
                    for (path, body) in received { webhooks.append(await lifecycle.attribute(path: path, body: body, client)) }
                    Self.check(id, lifecycle, sessions, resources: resourceCount(), attempts: attempts, webhooks: webhooks, duplicates: duplicates)
                    Self.report(id, sessions, elapsed: elapsed, width: width, webhooks: webhooks.count, duplicates: duplicates)
                }
            }
            group.cancelAll()
        }
    }

    /// The invariants: no lost or duplicated resource, legal state paths, one resource per idempotency key, and the
    /// webhook log, the receiver and the final states agreeing.
    static func check(
        _ id: String, _ lifecycle: any StressLifecycle, _ sessions: [StressSession], resources: Int, attempts: [Value],
        webhooks: [StressWebhook], duplicates: Int
    ) {
        #expect(sessions.count == Self.sessions, "\(id): \(sessions.count) of \(Self.sessions) sessions finished")
        #expect(resources == sessions.count, "\(id): the mock holds \(resources) resources for \(sessions.count) sessions")
        #expect(Set(sessions.map(\.resource)).count == sessions.count, "\(id): two sessions share a resource")
        let keyed = sessions.compactMap(\.idempotencyKey)
        #expect(Set(keyed).count == keyed.count, "\(id): a key was used by two sessions")
        for session in sessions {
            #expect(session.problems.isEmpty, "\(id) #\(session.index): \(session.problems)")
            let illegal = lifecycle.illegalSteps(session.history)
            #expect(illegal.isEmpty, "\(id) #\(session.index) \(session.history): illegal \(illegal)")
        }
        // Webhooks: every attempt delivered, the receiver got exactly what the log lists, and each session got what
        // its history calls for — plus the injected duplicates, nothing more.
        let expected = sessions.map { lifecycle.expectedWebhooks($0.history) }
        let due = expected.reduce(0, +)
        #expect(attempts.allSatisfy { $0["delivered"]?.boolValue == true }, "\(id): an attempt was not delivered")
        #expect(attempts.count == webhooks.count, "\(id): the log lists \(attempts.count) attempts, the receiver got \(webhooks.count)")
        #expect(webhooks.count == due + min(duplicates, due), "\(id): \(webhooks.count) webhooks for \(due) notifications and \(duplicates) duplicates")
        var got = Array(repeating: 0, count: sessions.count)
        for webhook in webhooks {
            guard let index = webhook.index, sessions.indices.contains(index) else {
                Issue.record("\(id): a webhook names no session of this run")
                continue
            }
            got[index] += 1
            // A notification reports a state the session went through (its final one, unless it moved on since).
            if let state = webhook.state {
                #expect(sessions[index].history.contains(state), "\(id) #\(index): notified \(state), history \(sessions[index].history)")
            }
        }
        let extra = sessions.indices.filter { got[$0] > expected[$0] }.map { "#\($0) \(sessions[$0].history): \(got[$0]) for \(expected[$0])" }
        #expect(extra.count <= duplicates, "\(id): more sessions got extra webhooks than were duplicated: \(extra)")
        for (index, session) in sessions.enumerated() {
            let lower = expected[index]
            #expect(got[index] >= lower && got[index] <= 2 * lower, "\(id) #\(index) \(session.history): \(got[index]) webhooks, \(lower) due")
        }
    }

    static func report(_ id: String, _ sessions: [StressSession], elapsed: Double, width: Int, webhooks: Int, duplicates: Int) {
        let latencies = sessions.map(\.seconds).sorted()
        func percentile(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        var finals: [String: Int] = [:]
        for session in sessions { finals[session.state ?? "none", default: 0] += 1 }
        let states = finals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var answers: [Int: Int] = [:]
        for session in sessions { for status in session.duplicateStatuses { answers[status, default: 0] += 1 } }
        let racing = answers.sorted { $0.key < $1.key }.map { "HTTP \($0.key) ×\($0.value)" }.joined(separator: ", ")
        print(
            "stress \(id): \(sessions.count) sessions, \(width) at once, racing duplicates answered \(racing); "
                + "\(duplicates) duplicated webhooks (\(webhooks) received) in \(String(format: "%.2f", elapsed)) s "
                + "(\(String(format: "%.0f", Double(sessions.count) / max(elapsed, 0.000_001))) sessions/s, "
                + "p50 \(String(format: "%.1f", percentile(0.5) * 1000)) ms, p99 \(String(format: "%.1f", percentile(0.99) * 1000)) ms); final: \(states)")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
