import Foundation
import PayCheckRunner
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The merchant's backend, started by a run from its contract's `backend.start` (like Playwright's `webServer`):
/// `/bin/sh -c <command>` in its folder, with the run's variables added to the environment, its output (stdout and
/// stderr together) kept — the last ``keptBytes`` — so a failing case can show what it wrote.
///
/// It is spawned directly (`posix_spawn`), not through Foundation's `Process`, for two reasons: the child gets an
/// empty signal mask and default handlers (PayCheck's own threads block SIGINT and SIGTERM for its signal watcher,
/// and a spawned child would inherit that mask and ignore a polite stop), and it leads a process group of its own,
/// so stopping it stops whatever its shell started too.
///
/// A backend that daemonises (a grandchild that calls `setsid`, `nohup … &` in a compound command) leaves that group.
/// Every process the backend starts inherits ``markerVariable`` with this run's own value, so ``stop(grace:)`` finds
/// them wherever they went (Linux: `/proc/<pid>/environ`) and stops them too. Chosen over making PayCheck the child
/// subreaper (`PR_SET_CHILD_SUBREAPER`): that also re-parents every other orphan of the process to it — the test
/// process runs many backends and tools at once — and a reaper must then collect them all; the marker names exactly
/// this backend's processes. A process that clears its whole environment escapes it.
final class BackendProcess: BackendOutput, Sendable {
    /// The variable every process of one backend inherits, with a value of its own per start.
    static let markerVariable = "PAYCHECK_BACKEND_INSTANCE"

    /// How much output is kept.
    static let keptBytes = 256 * 1024

    /// The process id (also its process group id).
    let pid: pid_t
    /// This start's value of ``markerVariable``.
    let marker = UUID().uuidString
    /// The kept output and how much was written in all.
    private let output = OutputBuffer()
    /// The exit status once it was collected.
    private let exit = Mutex<Int32?>(nil)

    /// The kept output, shared with the reader.
    private final class OutputBuffer: Sendable {
        let state = Mutex<(kept: [UInt8], written: Int, closed: Bool)>(([], 0, false))

        func append(_ bytes: UnsafeRawBufferPointer) {
            self.state.withLock { state in
                state.kept += bytes
                state.written += bytes.count
                if state.kept.count > BackendProcess.keptBytes { state.kept.removeFirst(state.kept.count - BackendProcess.keptBytes) }
            }
        }
    }

    /// Why a backend could not be spawned.
    struct SpawnError: Error, CustomStringConvertible {
        /// The failing call and its error.
        var description: String
    }

    /// Starts `command` in `directory` with `environment`.
    /// - Throws: ``SpawnError`` when the shell cannot be started.
    init(command: String, directory: String, environment: [String: String]) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        // A simple command is `exec`ed, so the backend itself is the group's leader; a compound one keeps its shell.
        let isSimple = !command.contains(where: { ";&|\n()`".contains($0) })
        let folder = "'" + directory.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let script = "cd \(folder) || exit 126\n" + (isSimple ? "exec " + command : command)
        let arguments = ["/bin/sh", "-c", script]
        // This start's marker replaces one inherited from a PayCheck that started this one.
        let environmentLines =
            environment.filter { $0.key != Self.markerVariable }.map { "\($0.key)=\($0.value)" } + ["\(Self.markerVariable)=\(self.marker)"]
        var child = pid_t()
        let status = Self.withCStrings(arguments) { argv in
            Self.withCStrings(environmentLines) { envp in
                posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
            }
        }
        close(writeEnd)
        guard status == 0 else {
            close(readEnd)
            throw SpawnError(description: "posix_spawn /bin/sh: \(String(cString: strerror(status)))")
        }
        self.pid = child
        let output = self.output
        // The read end of the output pipe, drained until the backend and its children close it.
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                buffer.withUnsafeBytes { output.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            close(readEnd)
            output.state.withLock { $0.closed = true }
        }
        reader.start()
    }

    /// Runs `body` with `strings` as a NULL-terminated C array.
    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }

    /// Whether it is still running (collects its exit status once it ended).
    var isRunning: Bool {
        self.exit.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(self.pid, &raw, WNOHANG) == self.pid else { return true }
            status = Self.exitCode(raw)
            return false
        }
    }

    /// How it ended, once it did.
    var exitDescription: String {
        guard !self.isRunning, let status = self.exit.withLock({ $0 }) else { return "running" }
        return status >= 128 ? "was stopped by signal \(status - 128)" : "exited with status \(status)"
    }

    /// The exit code of a `waitpid` status: the code, or 128 + the signal.
    private static func exitCode(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    var mark: Int { self.output.state.withLock { $0.written } }

    func text(since mark: Int) -> String {
        let (kept, written) = self.output.state.withLock { ($0.kept, $0.written) }
        let wanted = max(0, written - mark)
        let available = min(wanted, kept.count)
        let cut = wanted > available ? "[… \(wanted - available) earlier bytes not kept]\n" : ""
        return cut + String(decoding: kept.suffix(available), as: UTF8.self)
    }

    /// The end of everything it wrote, once what it wrote before exiting was read (at most a second's wait).
    var tail: String {
        let deadline = Date().addingTimeInterval(1)
        while !self.isRunning, !self.output.state.withLock({ $0.closed }), Date() < deadline { usleep(5_000) }
        return self.text(since: max(0, self.mark - 8 * 1024))
    }

    /// Stops its process group and every process that carries its marker (a daemonised grandchild included):
    /// SIGTERM, then SIGKILL to whatever is left after `grace` seconds.
    func stop(grace: Double = 5) async {
        kill(-self.pid, SIGTERM)
        for pid in self.markedProcesses() { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while self.isRunning || !self.markedProcesses().isEmpty, Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        // The group: the backend's own children too, which a compound command's shell does not take down.
        kill(-self.pid, SIGKILL)
        for pid in self.markedProcesses() { kill(pid, SIGKILL) }
        while self.isRunning { try? await Task.sleep(nanoseconds: 10_000_000) }
        // A killed process leaves `/proc` once its parent (or init) collects it: wait for that, briefly.
        let gone = Date().addingTimeInterval(2)
        while !self.markedProcesses().isEmpty, Date() < gone { try? await Task.sleep(nanoseconds: 10_000_000) }
    }

    /// The live processes (zombies aside) whose environment carries this backend's marker; empty where `/proc` is not.
    func markedProcesses() -> [pid_t] {
        let wanted = Array("\(Self.markerVariable)=\(self.marker)".utf8)
        let own = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != own,
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                environ.split(separator: 0).contains(where: { $0.elementsEqual(wanted) }),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z"
            else { return nil }
            return pid
        }
    }
}
