import Foundation
package import PayCheckRunner

/// Writes a report so that readers only ever see a whole file, and never anything but a regular file is replaced.
///
/// The text goes to a temporary file in the same folder, which is then renamed over the target. A path that is a
/// symbolic link is followed explicitly (the link stays, its target is replaced); a device node, a folder, a FIFO
/// or a socket is refused — `--report-json /dev/null` must never replace `/dev/null`, even as root.
package enum ReportFile {
    /// Why a report cannot be written.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    /// One report a run writes: its path and how it renders a result, piece by piece.
    package struct Kind: Sendable {
        package var path: String
        var render: @Sendable (RunResult, _ emit: ([UInt8]) -> Void) -> Void

        /// A report rendered whole, as text.
        package init(path: String, render: @escaping @Sendable (RunResult) -> String) {
            self.path = path
            self.render = { result, emit in emit(Array(render(result).utf8)) }
        }

        /// A report rendered in pieces (``JSONReporter/write(_:to:)``), so it is never whole in memory.
        package init(path: String, streaming render: @escaping @Sendable (RunResult, _ emit: ([UInt8]) -> Void) -> Void) {
            self.path = path
            self.render = render
        }

        /// Renders and writes `result`.
        /// - Throws: a ``Refusal`` that names the report when the file cannot be written.
        package func write(_ result: RunResult) throws(Refusal) {
            do {
                try ReportFile.write(to: path) { emit in render(result, emit) }
            } catch {
                throw Refusal(description: "cannot write report '\(path)': \(error)")
            }
        }
    }

    /// Removes the regular file at `path` (or the one its symbolic link points to), if there is one: an earlier
    /// run's report, which must not be mistaken for this run's.
    package static func remove(_ path: String) {
        guard let target = try? resolve(path) else { return }
        var info = stat()
        guard lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        unlink(target)
    }

    /// Writes the bytes `body` hands on to `path`.
    package static func write(to path: String, _ body: (_ emit: ([UInt8]) -> Void) -> Void) throws {
        let target = try resolve(path)
        let folder = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        let temporary = (folder.isEmpty ? "." : folder) + "/.\((target as NSString).lastPathComponent).\(UUID().uuidString).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw Refusal(description: "cannot create a temporary file in '\(folder)': \(String(cString: strerror(errno)))") }
        var failure: Int32 = 0
        body { bytes in
            guard failure == 0 else { return }
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += written
                }
            }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw Refusal(description: "cannot write '\(temporary)': \(String(cString: strerror(failure)))")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
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
