import Foundation
import PayCheckCore
import Testing

/// Loading a folder: entries named like suites that are not regular files are skipped with a warning.
@Suite("Suite folders")
struct SuiteFolderTests {
    @Test("a folder named x.yaml inside a suite folder is skipped with a warning, not fatal")
    func folderNamedLikeASuite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("x.yaml"), withIntermediateDirectories: true)
        try "suite: ok\ncases:\n  - name: c\n    steps:\n      - wait: 1ms\n".write(
            to: folder.appendingPathComponent("ok.yaml"), atomically: true, encoding: .utf8)
        let result = SuiteLoader().load(paths: [folder.path])
        #expect(result.suites.map(\.name) == ["ok"])
        #expect(!result.diagnostics.hasErrors)
        #expect(result.diagnostics.map(\.message) == ["skipped '\(folder.path)/x.yaml': it is named like a suite but is not a regular file"])
        #expect(result.diagnostics.first?.severity == .warning)
    }

    @Test(
        "binary and non-UTF-8 suite files get a located, plain-language error",
        arguments: [
            ([0x73, 0x3A, 0x20, 0x00, 0x01] as [UInt8], 1, 4, "the file is binary (a NUL byte at offset 3), not a YAML suite"),
            (Array("suite: s\ncases:\n  - name: caf".utf8) + [0xE9, 0x0A], 3, 14, "the file is not UTF-8 text (byte 0xE9 at offset 29); save it as UTF-8"),
        ])
    func notText(bytes: [UInt8], line: Int, column: Int, message: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-bytes-\(UUID().uuidString).yaml")
        try Data(bytes).write(to: file)
        let result = SuiteLoader().load(paths: [file.path])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.message == message)
        #expect(diagnostic.location == SourceLocation(file: file.path, line: line, column: column))
    }

    @Test("a file past the 4 MiB bound is refused at line 1 before any YAML is read; one at the bound is read")
    func sizeBound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A deep block map (what took YAML 30 s at 50 MB): the bound answers before the parser sees it.
        var deep = "suite: deep\nvars:\n"
        var depth = 0
        while deep.utf8.count <= SuiteLoader.maximumFileBytes {
            deep += String(repeating: " ", count: 2 + depth) + "k\(depth):\n"
            depth += 1
        }
        let big = folder.appendingPathComponent("big.yaml")
        try deep.write(to: big, atomically: true, encoding: .utf8)
        let refused = SuiteLoader().load(paths: [big.path])
        let diagnostic = try #require(refused.diagnostics.first)
        #expect(diagnostic.message == "the file is more than the 4 MiB a suite file may be")
        #expect(diagnostic.location == SourceLocation(file: big.path, line: 1, column: 1))
        #expect(diagnostic.hint?.contains("split it") == true)

        let padded = folder.appendingPathComponent("padded.yaml")
        let suite = "suite: ok\ncases:\n  - name: c\n    steps:\n      - wait: 1ms\n"
        try (suite + String(repeating: "#", count: SuiteLoader.maximumFileBytes - suite.utf8.count)).write(
            to: padded, atomically: true, encoding: .utf8)
        let read = SuiteLoader().load(paths: [padded.path])
        #expect(read.suites.map(\.name) == ["ok"], "\(read.diagnostics.map(\.description))")
    }

    @Test("a suite saved with a UTF-8 byte-order mark loads, and its problems keep the columns an editor shows")
    func byteOrderMark() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-bom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let good = folder.appendingPathComponent("good.yaml")
        try Data(bom + Array("suite: ok\ncases:\n  - name: c\n    steps:\n      - wait: 1ms\n".utf8)).write(to: good)
        let loaded = SuiteLoader().load(paths: [good.path])
        #expect(loaded.suites.map(\.name) == ["ok"])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.message))")
        let bad = folder.appendingPathComponent("bad.yaml")
        try Data(bom + Array("suit: ok\ncases:\n  - name: c\n    steps:\n      - wait: 1ms\n".utf8)).write(to: bad)
        let refused = SuiteLoader().load(paths: [bad.path])
        let located = refused.diagnostics.filter { $0.message.contains("suit") }.map(\.location)
        #expect(located.contains(SourceLocation(file: bad.path, line: 1, column: 1)), "\(refused.diagnostics.map { "\(String(describing: $0.location)) \($0.message)" })")
    }
}

@Suite("Suite schema")
struct SuiteSchemaFileTests {
    // The file's comparison with the generated, provider-aware schema is in PayCheckRunnerTests
    // (CommonMistakesTests), where the providers are known.
    @Test("the static part of the schema is valid JSON")
    func staticPartParses() {
        #expect(JSONText.parse(SuiteSchema.jsonSchema) != nil)
    }
}
