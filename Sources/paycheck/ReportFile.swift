import Foundation
import ArgumentParser
import PayCheckRunner

/// Writes a report so that readers only ever see a whole file, and never anything but a regular file is replaced.
///
/// The text goes to a temporary file in the same folder, which is then renamed over the target. A path that is a
/// symbolic link is followed explicitly (the link stays, its target is replaced); a device node, a folder, a FIFO
/// or a socket is refused — `--report-json /dev/null` must never replace `/dev/null`, even as root.
enum ReportFile {
    /// Why a report cannot be written.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// One report a run writes: its path and how it renders a result.
    struct Kind: Sendable {
        var path: String
        var render: @Sendable (RunResult) -> String

        /// Renders and writes `result`.
        /// - Throws: exit 2 with a message when the file cannot be written.
        func write(_ result: RunResult, output: Output) throws {
            do {
                try ReportFile.write(render(result), to: path)
            } catch {
                output.err("error: cannot write report '\(path)': \(error)")
                throw ExitCode(2)
            }
        }
    }

    /// Removes the regular file at `path` (or the one its symbolic link points to), if there is one: an earlier
    /// run's report, which must not be mistaken for this run's.
    static func remove(_ path: String) {
        guard let target = try? resolve(path) else { return }
        var info = stat()
        guard lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        unlink(target)
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        let target = try resolve(path)
        let folder = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        let temporary = (folder.isEmpty ? "." : folder) + "/.\((target as NSString).lastPathComponent).\(UUID().uuidString).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw Refusal(description: "cannot create a temporary file in '\(folder)'")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw Refusal(description: "cannot replace '\(target)': \(reason)")
        }
    }

    /// The path to write: `path` itself, or the file a symbolic link points to; refuses anything but a regular file.
    static func resolve(_ path: String) throws -> String {
        var target = path
        for _ in 0..<16 {
            var info = stat()
            guard lstat(target, &info) == 0 else { return target }  // a new path
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                return target
            case S_IFLNK:
                let destination = try FileManager.default.destinationOfSymbolicLink(atPath: target)
                target = destination.hasPrefix("/") ? destination : ((target as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
            case S_IFDIR:
                throw Refusal(description: "'\(path)' is a folder; give a file path such as '\(path)/report.json'")
            default:
                throw Refusal(description: "'\(path)' is not a regular file (a device, FIFO or socket); reports are written only to regular files")
            }
        }
        throw Refusal(description: "'\(path)' is a chain of more than 16 symbolic links")
    }
}
