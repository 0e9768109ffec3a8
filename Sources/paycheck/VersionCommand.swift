import ArgumentParser
import Foundation
import PayCheckRunner

/// `paycheck version`: the version, the commit it was built from (stamped by the BuildInfo plugin), the build
/// configuration and whether the Swift runtime is linked in or loaded from the toolchain.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the PayCheck version, the commit and the build configuration."
    )

    func run() {
        Output().out(BuildDescription.current.line)
    }
}

/// What `paycheck version` and `--version` print.
struct BuildDescription {
    var version = payCheckVersion
    var commit = buildCommit
    #if DEBUG
        var configuration = "debug"
    #else
        var configuration = "release"
    #endif
    var runtime = BuildDescription.swiftRuntime()

    static let current = BuildDescription()

    var line: String { "paycheck \(version) (commit \(commit), \(configuration) build, Swift runtime \(runtime))" }

    /// `static` when no shared Swift runtime library is mapped into this process (a `--static-swift-stdlib` build),
    /// `static, no shared library` when nothing is (a fully static build, `scripts/install.sh`), `shared` when the
    /// runtime is loaded from the toolchain, `unknown` where `/proc/self/maps` cannot be read.
    static func swiftRuntime() -> String {
        // Read to the end: a procfs file reports size 0, and a whole-file read may stop after its first page.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/maps") else { return "unknown" }
        defer { try? file.close() }
        let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        if maps.contains("/libswiftCore.so") { return "shared" }
        return maps.contains(".so") ? "static" : "static, no shared library"
    }
}
