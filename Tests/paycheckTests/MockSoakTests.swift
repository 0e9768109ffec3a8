import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
    import NIOHTTP1
#endif

/// A standalone `paycheck mock` left running under load: its memory stays under the documented bound, and it exits
/// within its shutdown grace on SIGINT even while clients hold half-sent requests.
@Suite("Standalone mock under a soak loop and a hostile shutdown", .serialized)
struct MockSoakTests {
    /// The peak resident memory bound for this loop with 4 MiB journal and key-value limits (README, "Running the
    /// mock safely", documents the figure).
    static let peakRSSBoundMiB = 160

    /// Starts `paycheck mock` on a free port with `arguments`; returns the process and its base URL.
    static func startMock(_ arguments: [String] = []) throws -> (Process, String) {
        let (process, banner) = try CLI(files: [:]).startMock(["--port", "0"] + arguments)
        return (process, try #require(CLI.baseURL(in: banner)))
    }

    /// The process's peak resident set size in MiB (`VmHWM` of /proc/<pid>/status).
    static func peakRSSMiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 / 1024 }
    }

    @Test("a bounded loop of large kv, echo and provider requests for a fixed time keeps the mock under its RSS bound")
    func soak() async throws {
        // Small limits, so the stores fill and evict within the loop.
        let (process, base) = try Self.startMock(["--journal-bytes", "4194304", "--kv-bytes", "4194304"])
        defer { if process.isRunning { process.terminate() } }
        let seconds = Double(ProcessInfo.processInfo.environment["PAYCHECK_SOAK_SECONDS"] ?? "") ?? 4
        let payload = "{\"blob\":\"" + String(repeating: "x", count: 256 * 1024) + "\"}"
        let deadline = Date().addingTimeInterval(seconds)
        let sent = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var count = 0
                    // At least 6 requests per worker (12 MiB in all, past the 4 MiB bounds), then until the deadline.
                    while count < 6 || Date() < deadline {
                        let path = ["/__paycheck/kv", "/__paycheck/echo/soak", "/mollie/v2/payments"][(worker + count) % 3]
                        var request = HTTPClientRequest(url: base + path)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        if path.hasPrefix("/mollie") {
                            request.headers.add(name: "Authorization", value: "Bearer test_PayCheckMollieMockKey0123456789ab")
                            request.body = .bytes(ByteBuffer(string: #"{"amount":{"currency":"EUR","value":"1.00"},"description":"soak","redirectUrl":"https://m.test/r"}"#))
                        } else {
                            request.body = .bytes(ByteBuffer(string: payload))
                        }
                        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let limits = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/__paycheck/limits"), timeout: .seconds(5))
        let usage = String(buffer: try await limits.body.collect(upTo: 1 << 16))
        let peak = try #require(Self.peakRSSMiB(process.processIdentifier))
        print("soak: \(sent) requests in \(seconds)s, peak RSS \(peak) MiB (bound \(Self.peakRSSBoundMiB) MiB); \(usage)")
        #expect(sent > 0)
        #expect(usage.contains(#""kv":{"bytes":"#) && !usage.contains(#""evicted":0},"webhooks""#), "the key-value store evicted: \(usage)")
        #expect(peak < Self.peakRSSBoundMiB, "peak RSS \(peak) MiB after \(sent) requests")
        process.interrupt()
        process.waitUntilExit()
    }

    @Test("SIGINT ends the mock within its shutdown grace while clients hold half-sent headers and bodies open")
    func shutdownWithHalfOpenClients() async throws {
        let (process, base) = try Self.startMock(["--shutdown-grace", "1"])
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(URLComponents(string: base)?.port)
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        let halfSent = [
            "POST /__paycheck/kv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"a\":",
            "POST /mollie/v2/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\n{",
            "GET /__paycheck/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
        ]
        for (index, text) in (halfSent + halfSent).enumerated() {
            let socket = try #require(Self.connect(port: port), "socket \(index)")
            sockets.append(socket)
            _ = text.withCString { send(socket, $0, strlen($0), 0) }
        }
        // The requests have reached the server (its health answers while they hang).
        let health = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/__paycheck/health"), timeout: .seconds(5))
        #expect(health.status.code == 200)
        let began = Date()
        process.interrupt()
        process.waitUntilExit()
        let took = Date().timeIntervalSince(began)
        print("shutdown with \(sockets.count) half-open clients took \(String(format: "%.2f", took))s")
        // The grace (1 s), then the cancellation of what is left, with room for a loaded machine; measured 1.0 s idle.
        #expect(took < 6, "the mock took \(took)s to exit with half-sent requests open")
    }

    /// A TCP connection to 127.0.0.1:`port`, or nil.
    static func connect(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
