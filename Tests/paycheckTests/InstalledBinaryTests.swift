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

    @Test("ldd lists no libswift* and nothing from the toolchain")
    func linksNoSwiftLibrary() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ldd = try Self.run("/usr/bin/ldd", [try #require(Self.binary)], in: folder)
        #expect(ldd.status == 0, "ldd: \(ldd.output)")
        #expect(!ldd.output.contains("libswift"), "\(ldd.output)")
        #expect(!ldd.output.contains("/opt/swift") && !ldd.output.contains("not found"), "\(ldd.output)")
    }

    @Test("version names the version, a commit and a release build with the Swift runtime linked in")
    func version() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = try Self.run(try #require(Self.binary), ["version"], in: folder)
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("paycheck "), "\(version.output)")
        #expect(version.output.contains("release build") && version.output.contains("Swift runtime static"), "\(version.output)")
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
