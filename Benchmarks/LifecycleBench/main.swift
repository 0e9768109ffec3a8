// LifecycleBench: drives many sessions of one provider's lifecycle (the stress test's, from PayCheckTestSupport)
// against a running `paycheck mock`, or plain `GET /` requests against HelloBench, and prints one JSON line of
// figures. Used only by Benchmarks/lifecycle.py; it has no other purpose.
//
//   LifecycleBench --url http://127.0.0.1:PORT --target mollie|placetopay|khipu|mit|yuno|hello
//                  [--sessions 2000] [--concurrency 32] [--pid PID]
//
// `--pid` names the server's process: its peak RSS (VmHWM) is read from /proc after the run.
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import PayCheckTestSupport
import Synchronization
import PayCheckProviders

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("LifecycleBench: \(message)\n".utf8))
    exit(2)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// VmHWM of `pid` in KiB, or 0.
func peakRSS(_ pid: String?) -> Int {
    guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// The merchant's webhook endpoint: 200 to every POST under /hooks/.
final class Receiver: Sendable {
    let count = Atomic<Int>(0)
    let (portStream, ports) = AsyncStream.makeStream(of: Int.self)

    var application: some ApplicationProtocol {
        let router = Router()
        router.post("/hooks/**") { request, _ -> HTTPResponse.Status in
            _ = try await request.body.collect(upTo: 1 << 20)
            self.count.add(1, ordering: .relaxed)
            return .ok
        }
        var logger = Logger(label: "lifecycle-bench-receiver")
        logger.logLevel = .critical
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in self.ports.yield(channel.localAddress?.port ?? 0) }, logger: logger)
    }
}

guard let url = argument("--url"), let target = argument("--target") else {
    fail("usage: LifecycleBench --url URL --target PROVIDER|hello [--sessions N] [--concurrency C] [--pid PID]")
}
let sessions = argument("--sessions").flatMap { Int($0) } ?? 2000
let concurrency = argument("--concurrency").flatMap { Int($0) } ?? 32
let lifecycle = StressLifecycles.named(target)
if target != "hello", lifecycle == nil { fail("unknown target '\(target)'") }

let meter = StressMeter()
let receiver = Receiver()
let figures: [String: Any] = try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await receiver.application.runService(gracefulShutdownSignals: []) }
    var ports = receiver.portStream.makeAsyncIterator()
    guard let port = await ports.next() else { fail("the webhook receiver did not start") }
    let result = try await HTTPClient.withHTTPClient(configuration: StressClient.configuration(connections: concurrency)) { http in
        let client = StressClient(client: http, baseURL: url, meter: meter)
        let hooks = "http://127.0.0.1:\(port)/hooks/\(target)"
        try await lifecycle?.prepare(client, hooks: hooks)
        let setupRequests = meter.values.count
        let start = ContinuousClock.now
        let records: [(Double, Int)] = try await stressForEach(sessions, width: concurrency) { index in
            let began = ContinuousClock.now
            if let lifecycle {
                let session = try await lifecycle.run(index, client, hooks: hooks)
                return (seconds(ContinuousClock.now - began), session.problems.count)
            }
            let response = try await client.send("GET", "/")
            return (seconds(ContinuousClock.now - began), response.status == 200 ? 0 : 1)
        }
        let elapsed = seconds(ContinuousClock.now - start)
        let requests = Array(meter.values.dropFirst(setupRequests)).sorted()
        let latencies = records.map(\.0).sorted()
        return [
            "target": target, "sessions": sessions, "concurrency": concurrency, "seconds": elapsed,
            "sessions_per_s": Double(sessions) / elapsed, "requests": requests.count,
            "requests_per_session": Double(requests.count) / Double(max(1, sessions)),
            "requests_per_s": Double(requests.count) / elapsed,
            "session_p50_ms": percentile(latencies, 0.5) * 1000, "session_p99_ms": percentile(latencies, 0.99) * 1000,
            "request_p50_ms": percentile(requests, 0.5) * 1000, "request_p99_ms": percentile(requests, 0.99) * 1000,
            "problems": records.reduce(0) { $0 + $1.1 }, "webhooks": receiver.count.load(ordering: .relaxed),
            "peak_rss_kib": peakRSS(argument("--pid")),
        ] as [String: Any]
    }
    group.cancelAll()
    return result
}
let json = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
print("PAYCHECK_LIFECYCLE_JSON " + String(decoding: json, as: UTF8.self))
