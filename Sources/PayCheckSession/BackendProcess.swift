import Foundation
import PayCheckRunner
import Synchronization

/// The merchant's backend, started by a run from its contract's `backend.start` (like Playwright's `webServer`):
/// `/bin/sh -c <command>` in its folder, with the run's variables added to the environment, its output kept (the
/// last ``keptBytes``) so a failing case can show what it wrote; stopped with SIGTERM, then SIGKILL.
final class BackendProcess: BackendOutput, Sendable {
    /// How much output is kept.
    static let keptBytes = 256 * 1024

    /// The process.
    private let process: Process
    /// The output pipe (stdout and stderr together).
    private let pipe = Pipe()
    /// The kept output and how much was written in all.
    private let output = OutputBuffer()

    /// The kept output, shared with the pipe's reader.
    private final class OutputBuffer: Sendable {
        let state = Mutex<(kept: [UInt8], written: Int)>(([], 0))
    }

    /// Starts `command` in `directory` with `environment`.
    /// - Throws: when the shell cannot be started.
    init(command: String, directory: String, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `exec`, so that stopping the shell stops the backend itself.
        process.arguments = ["-c", "exec " + command]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        process.standardOutput = self.pipe
        process.standardError = self.pipe
        process.standardInput = FileHandle.nullDevice
        self.process = process
        self.pipe.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            output.state.withLock { state in
                state.kept += data
                state.written += data.count
                if state.kept.count > Self.keptBytes { state.kept.removeFirst(state.kept.count - Self.keptBytes) }
            }
        }
        try process.run()
    }

    /// Whether it is still running.
    var isRunning: Bool { self.process.isRunning }

    /// How it ended, once it did.
    var exitDescription: String {
        self.process.isRunning ? "running" : "exited with status \(self.process.terminationStatus)"
    }

    var mark: Int { self.output.state.withLock { $0.written } }

    func text(since mark: Int) -> String {
        let (kept, written) = self.output.state.withLock { ($0.kept, $0.written) }
        let wanted = max(0, written - mark)
        let available = min(wanted, kept.count)
        let cut = wanted > available ? "[… \(wanted - available) earlier bytes not kept]\n" : ""
        return cut + String(decoding: kept.suffix(available), as: UTF8.self)
    }

    /// The end of everything it wrote.
    var tail: String { self.text(since: max(0, self.mark - 8 * 1024)) }

    /// Stops it: SIGTERM, then SIGKILL after `grace` seconds.
    func stop(grace: Double = 5) async {
        guard self.process.isRunning else { return }
        self.process.terminate()
        let deadline = Date().addingTimeInterval(grace)
        while self.process.isRunning, Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
        self.process.waitUntilExit()
    }
}
