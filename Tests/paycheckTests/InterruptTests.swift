import Foundation
import PayCheckTestSupport
import Testing

/// SIGINT and SIGTERM at any moment of `paycheck run`, from the first instruction `main` runs: the report paths hold
/// the three reports of this run, with its `--run-id` (saying it was interrupted, exit 130, unless the run had
/// finished) — never the previous run's green reports, never fewer than three.
@Suite("Signals at any moment of a run", .serialized)
struct InterruptTests {
    /// Where a trial sends its signal.
    enum Moment: Equatable, CustomStringConvertible {
        /// As soon as the process holds the signals (before `main`), then after a random number of polls (the first
        /// ~100 ms: starting, parsing, loading).
        case loading
        /// After a random number of finished suites.
        case running
        /// As soon as the first report file is being written.
        case writing

        /// The moments a trial picks from.
        static let allCases: [Moment] = [.loading, .running, .writing]

        var description: String {
            switch self {
            case .loading: "loading"
            case .running: "running"
            case .writing: "writing"
            }
        }
    }

    static let reports = ["junit.xml", "report.json", "report.html"]

    /// Twenty suite files of two echo cases each: a run long enough to be caught loading, running and writing.
    static func suites() -> [String: String] {
        var files: [String: String] = [:]
        for index in 1...20 {
            files["suites/s\(index).yaml"] = """
                suite: s\(index)
                cases:
                  - name: first
                    steps:
                      - http: { method: POST, url: "{{ mock.url }}/__paycheck/echo/a", json: { n: \(index) } }
                        expect: { status: 200, body: { json.n: \(index) } }
                  - name: second
                    steps:
                      - http: { url: "{{ mock.url }}/__paycheck/echo/b?status=201" }
                        expect: { status: 201 }
                """
        }
        return files
    }

    @Test("50 signals at random moments — loading, running, writing, some doubled — leave this run's three reports")
    func randomMoments() async throws {
        try await Self.trials(50) { _ in (Moment.allCases.randomElement()!, Int.random(in: 0..<3) == 0) }
    }

    @Test("10 double signals, one in each moment then at random, leave this run's three reports")
    func doubleSignals() async throws {
        try await Self.trials(10) { trial in (trial <= 3 ? Moment.allCases[trial - 1] : Moment.allCases.randomElement()!, true) }
    }

    /// Runs `count` trials, each at the moment (and single or double) `plan` gives it, off the cooperative pool: each
    /// trial waits on a process, which would starve the other suites' tasks of the pool's threads.
    static func trials(_ count: Int, plan: @escaping @Sendable (Int) -> (Moment, Bool)) async throws {
        try await TestProcess.offPool { try runTrials(count, plan: plan) }
    }

    /// The trials, blocking.
    static func runTrials(_ count: Int, plan: (Int) -> (Moment, Bool)) throws {
        let cli = try CLI(files: Self.suites())
        var outcomes: [String: Int] = [:]
        for trial in 1...count {
            let (moment, double) = plan(trial)
            let label = "trial \(trial): \(moment)\(double ? ", doubled" : "")"
            let status = try Self.trial(in: cli, moment: moment, double: double, label: label)
            outcomes["\(moment) → \(status)", default: 0] += 1
        }
        print("interrupt trials: " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
    }

    /// One run with the previous run's (green) reports in place and a signal at `moment`; checks what is left.
    /// - Returns: the exit status.
    static func trial(in cli: CLI, moment: Moment, double: Bool, label: String) throws -> Int32 {
        let folder = cli.folder
        try plantStaleReports(in: folder)
        let process = Process()
        process.executableURL = CLI.binary
        let runId = "trial-\(UUID().uuidString.prefix(8))"
        process.arguments = arguments(runId: runId)
        process.currentDirectoryURL = folder
        let out = Pipe()
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-interrupt-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: errPath.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errPath) }
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errPath)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let pid = process.processIdentifier
        // The signals are held from before `main` (until then the process is still being loaded).
        while process.isRunning, !signalsHeld(pid) {}
        switch moment {
        case .loading:
            for _ in 0..<Int.random(in: 0..<400) where process.isRunning { _ = signalsHeld(pid) }
        case .running:
            var seen = 0
            let wanted = Int.random(in: 1...19)
            while seen < wanted {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self).components(separatedBy: "PASS").count - 1
            }
        case .writing:
            while process.isRunning, !writingStarted(in: folder) {}
        }
        // A fast run can finish before the moment comes (its output is read as it arrives): then no signal reached it.
        let signalled = process.isRunning
        kill(pid, SIGTERM)
        if double { kill(pid, SIGINT) }
        // Drain stdout while waiting, so the child never blocks on a full pipe.
        DispatchQueue.global().async { _ = out.fileHandleForReading.readDataToEndOfFile() }
        guard exited.wait(timeout: .now() + 60) == .success else {
            kill(pid, SIGKILL)
            Issue.record("\(label): no exit 60 s after the signal")
            return -1
        }
        let status = process.terminationStatus
        let stderr = (try? String(contentsOf: errPath, encoding: .utf8)) ?? ""
        let context = "\(label): exit \(status), stderr: \(stderr.suffix(400))"
        #expect(process.terminationReason == .exit, "\(context)")
        #expect(status == 130 || (status == 0 && (moment == .writing || !signalled)), "\(context)")
        checkReports(in: folder, status: status, runId: runId, context: context)
        return status
    }

    /// `paycheck run` on the suites with the three reports and `runId`, the paths under `folder` (empty: the
    /// current folder; else ending with `/`).
    static func arguments(runId: String, in folder: String = "") -> [String] {
        ["run", folder + "suites", "-j", "1", "--color", "never", "--run-id", runId]
            + reports.flatMap { name in ["--report-" + (name == "junit.xml" ? "junit" : name == "report.json" ? "json" : "html"), folder + name] }
    }

    /// Plants the previous run's (green) reports in `folder`.
    static func plantStaleReports(in folder: URL) throws {
        for name in reports { try "STALE: the previous run's green report\n".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    }

    /// Checks that `folder` holds the three reports of the run `runId` that exited with `status`, and no temporary file.
    static func checkReports(in folder: URL, status: Int32, runId: String, context: String) {
        for name in reports {
            let path = folder.appendingPathComponent(name).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                Issue.record("\(context): no \(name)")
                continue
            }
            #expect(!text.hasPrefix("STALE"), "\(context): \(name) is the previous run's")
            if name == "report.json" {
                #expect(text.contains("\"exitCode\": \(status)"), "\(context): report.json says another exit")
                #expect(text.contains("\"id\": \"\(runId)\""), "\(context): report.json lost the run id")
            }
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }) ?? []
        #expect(leftovers.isEmpty, "\(context): temporary files left: \(leftovers)")
    }

    /// Whether the process's main thread holds (blocks) both SIGINT and SIGTERM (`/proc/PID/status`), which it does
    /// from before `main`, or is gone.
    static func signalsHeld(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
        let wanted: UInt64 = (1 << (UInt64(SIGINT) - 1)) | (1 << (UInt64(SIGTERM) - 1))
        var mask: UInt64 = 0
        for line in status.split(separator: "\n") where line.hasPrefix("SigBlk:") {
            mask |= UInt64(line.split(separator: "\t").last.map(String.init) ?? "", radix: 16) ?? 0
        }
        return mask & wanted == wanted
    }

    /// Whether a report is being written: a temporary file next to the reports, or one of them already replaced.
    static func writingStarted(in folder: URL) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return false }
        if names.contains(where: { $0.hasSuffix(".tmp") }) { return true }
        guard let junit = try? String(contentsOfFile: folder.appendingPathComponent("junit.xml").path, encoding: .utf8) else { return true }
        return !junit.hasPrefix("STALE")
    }
}
