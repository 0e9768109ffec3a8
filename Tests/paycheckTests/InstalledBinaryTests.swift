import Foundation
import PayCheckTestSupport
import Testing

private let installedBinary: String? = ProcessInfo.processInfo.environment["PAYCHECK_INSTALLED_BINARY"].flatMap { $0.isEmpty ? nil : $0 }

/// The binary a merchant installs (`scripts/install.sh PREFIX`, a release build with the Swift runtime linked in):
/// it loads no Swift library of the toolchain, and it runs the built-in suites installed beside it from a folder
/// that has none. `PAYCHECK_INSTALLED_BINARY` names it (`.ci/run` installs one and sets it); without it these tests
/// are skipped, since a release build takes minutes.
@Suite("installed binary", .enabled(if: installedBinary != nil, "set PAYCHECK_INSTALLED_BINARY to PREFIX/bin/paycheck after scripts/install.sh PREFIX (.ci/run does)"))
struct InstalledBinaryTests {
    static let binary = installedBinary

    /// Runs `executable` in `folder` with only a minimal environment: no toolchain on PATH, no LD_LIBRARY_PATH.
    static func run(_ executable: String, _ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        try TestProcess.run(
            executable, arguments, in: folder, environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "NO_COLOR": "1", "LANG": "C.UTF-8"])
    }

    static func emptyFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-installed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("the binary is fully static: no shared library, no dynamic loader before its first instruction")
    func linksNoSharedLibrary() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ldd = try Self.run("/usr/bin/ldd", [try #require(Self.binary)], in: folder)
        #expect(ldd.output.contains("not a dynamic executable") || ldd.output.contains("statically linked"), "ldd: \(ldd.output)")
        #expect(!ldd.output.contains("libswift") && !ldd.output.contains("/opt/swift"), "\(ldd.output)")
    }

    /// The kernel is still finishing `exec` for about 0.15 ms after a spawn returns (measured with 40 SIGTERMs drawn
    /// from the first 0.2 ms: 30 came before the program's first instruction); from there on the fully static binary
    /// holds the signals. A dynamically linked build is still being loaded for 10–30 ms, and fails this test.
    static let kernelExec: UInt32 = 500

    @Test("50 signals at random moments of the first 100 ms after spawn, nothing waited for, and 10 doubles leave this run's three reports")
    func signalsFromSpawn() async throws {
        let binary = try #require(Self.binary)
        try await TestProcess.offPool {
            let cli = try CLI(files: InterruptTests.suites())
            var outcomes: [Int32: Int] = [:]
            for trial in 1...60 {
                let delay = UInt32.random(in: Self.kernelExec..<100_000)
                let status = try Self.signalTrial(binary, in: cli.folder, after: delay, double: trial > 50)
                outcomes[status, default: 0] += 1
            }
            print("signals from spawn: " + outcomes.sorted { $0.key < $1.key }.map { "exit \($0.key) ×\($0.value)" }.joined(separator: ", "))
        }
    }

    /// Starts `binary` as a shell does (no signal held, default dispositions), signals it `delay` µs later (twice
    /// when `double`), and checks that the reports are this run's. Returns the exit status.
    static func signalTrial(_ binary: String, in folder: URL, after delay: UInt32, double: Bool) throws -> Int32 {
        try InterruptTests.plantStaleReports(in: folder)
        let runId = "spawn-\(UUID().uuidString.prefix(8))"
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [binary] + InterruptTests.arguments(runId: runId, in: folder.path + "/")
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment: [String] = ["PATH=/usr/bin:/bin", "HOME=" + folder.path, "NO_COLOR=1", "LANG=C.UTF-8"]
        var envp = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        usleep(delay)
        kill(pid, SIGTERM)
        if double { kill(pid, SIGINT) }
        var wait: Int32 = 0
        while waitpid(pid, &wait, 0) < 0, errno == EINTR {}
        let context = "signal \(Double(delay) / 1000) ms after spawn\(double ? ", doubled" : "")"
        // Killed by the signal (the default action, before the program held it): the previous run's reports remain.
        let killed = wait & 0x7f
        #expect(killed == 0, "\(context): killed by signal \(killed) before the program held it")
        guard killed == 0 else { return -killed }
        let status = (wait >> 8) & 0xff
        #expect(status == 130 || status == 0, "\(context): exit \(status)")
        InterruptTests.checkReports(in: folder, status: status, runId: runId, context: "\(context): exit \(status)")
        return status
    }

    @Test("version names the version, a commit and a release build with the Swift runtime linked in")
    func version() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = try Self.run(try #require(Self.binary), ["version"], in: folder)
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("paycheck "), "\(version.output)")
        #expect(version.output.contains("release build") && version.output.contains("Swift runtime static, no shared library"), "\(version.output)")
        #expect(!version.output.contains("commit unknown"), "\(version.output)")
    }

    @Test("runs every built-in suite from a folder outside the repository, and writes valid reports there")
    func runsBuiltInSuites() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(try #require(Self.binary), ["run", "--color", "never"], in: folder)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        #expect(run.output.contains("reading the built-in suites in"), "\(run.output.prefix(500))")
        let summary = run.output.split(separator: "\n").first { $0.contains(" cases: ") && $0.contains(" passed") }
        #expect(summary != nil && summary!.contains(" 0 failed, 0 errors"), "\(run.output.suffix(500))")
        let junit = folder.appendingPathComponent("Reports/junit.xml")
        #expect(FileManager.default.fileExists(atPath: junit.path))
        if JUnitSchema.path != nil {
            let problems = try JUnitSchema.problems(in: junit.path)
            #expect(problems == nil, "xmllint: \(problems ?? "")")
        }
    }

    @Test("runs the merchant packs installed beside it against a backend, from a folder outside the repository")
    func runsInstalledPacks() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ReferenceBackends/python-shop/contract.yaml").path
        let run = try Self.run(
            try #require(Self.binary), ["run", "--color", "never", "--contract", contract, "--pack", "mollie", "--pack", "placetopay"], in: folder)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        // Every scenario of both packs ran and passed: the summary's count equals its passed count, and each pack
        // reports all its scenarios run (the python shop's contract leaves nothing out).
        let summary = run.output.split(separator: "\n").first { $0.contains(" cases: ") && $0.contains(" passed") }.map(String.init)
        let counts = summary.map { line in line.split(separator: " ").compactMap { Int(String($0).trimmingCharacters(in: .punctuationCharacters)) } } ?? []
        #expect(counts.count >= 2 && counts[0] == counts[1] && counts[0] > 0, "\(run.output.suffix(500))")
        #expect(summary?.contains(" 0 failed, 0 errors") == true, "\(run.output.suffix(500))")
        let packs = run.output.split(separator: "\n").filter { $0.hasPrefix("pack ") }
        #expect(
            packs.count == 2
                && packs.allSatisfy { line in
                    let numbers = line.split(separator: " ").compactMap { Int($0) }
                    return numbers.count == 2 && numbers[0] == numbers[1] && line.hasSuffix("scenarios ran")
                }, "\(packs)")
    }
}
