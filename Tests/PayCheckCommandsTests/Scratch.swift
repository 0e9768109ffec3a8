import Foundation

/// A temporary folder holding the given files, for a test that reads or writes files in-process.
struct Scratch {
    let folder: URL

    /// A new folder with `files` (path relative to it → text) written in it.
    init(files: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-commands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try write(name, text) }
    }

    /// The absolute path of `name` in the folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes `text` to `name`, making its folders.
    func write(_ name: String, _ text: String) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The text of `name`.
    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }
}
