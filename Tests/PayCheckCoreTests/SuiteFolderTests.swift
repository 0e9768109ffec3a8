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
}
