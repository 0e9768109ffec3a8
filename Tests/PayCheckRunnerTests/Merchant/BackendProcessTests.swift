import Foundation
@testable import PayCheckSession
import Testing

/// A backend the run started leaves nothing behind: its group, a grandchild that daemonised, one that ignores SIGTERM.
@Suite("Backend process")
struct BackendProcessTests {
    /// The processes whose command line holds `tag`, by reading `/proc` (this test's own aside).
    static func processes(tagged tag: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard Int32(entry) != nil, Int32(entry) != getpid(),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                stat.split(separator: ")").last?.split(separator: " ").first != "Z"
            else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(tag) ? "\(entry): \(line)" : nil
        }
    }

    @Test(
        "stopping a backend stops a grandchild that called setsid and one that ignores SIGTERM: none of its processes is left",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/proc/self/environ") && FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid")
                && MerchantBackendTests.hasPython))
    func noProcessLeft() async throws {
        let tag = "paycheck-daemon-\(UUID().uuidString.prefix(8))"
        // The backend starts a daemon in a session of its own (out of its process group), a child that ignores
        // SIGTERM, and then serves nothing: the run's stop must reach all three.
        let sleep = "python3 -c 'import time; time.sleep(300)'"
        let stubborn = "python3 -c 'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(\"ignoring\", flush=True); time.sleep(300)'"
        let command = "setsid \(sleep) \(tag)-daemon & \(stubborn) \(tag)-stubborn & exec \(sleep) \(tag)-backend"
        let backend = try BackendProcess(command: command, directory: FileManager.default.temporaryDirectory.path, environment: ["PATH": "/usr/bin:/bin"])
        var started: [String] = []
        for _ in 0..<500 where started.count < 3 || !backend.text(since: 0).contains("ignoring") {
            try await Task.sleep(nanoseconds: 10_000_000)
            started = Self.processes(tagged: tag)
        }
        #expect(started.count == 3, "\(started)")
        #expect(backend.markedProcesses().count >= 3)
        let stopping = Date()
        await backend.stop(grace: 0.5)
        #expect(Date().timeIntervalSince(stopping) >= 0.5, "the one ignoring SIGTERM was given its grace period, then killed")
        #expect(Self.processes(tagged: tag).isEmpty, "left running: \(Self.processes(tagged: tag))")
    }
}
