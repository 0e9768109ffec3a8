import Foundation
import PayCheckCommands
import PayCheckRunner
import Testing

@Suite("report files")
struct ReportFileTests {
    /// A result of a run that checked nothing, enough to render every report.
    static var result: RunResult { .refused([(file: "suites", message: "nothing here")], target: .mock) }

    @Test("reports go only to regular files: a device is refused and kept, a folder refused with a hint, a symlink followed")
    func regularFilesOnly() throws {
        let scratch = try Scratch()
        let device = ReportFile.Kind(path: "/dev/null") { _ in "x" }
        #expect(throws: ReportFile.Refusal.self) { try device.write(Self.result) }
        do {
            try device.write(Self.result)
        } catch {
            #expect(error.description == "cannot write report '/dev/null': '/dev/null' is not a regular file (a device, FIFO or socket); reports are written only to regular files")
        }
        var info = stat()
        #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)

        try FileManager.default.createDirectory(atPath: scratch.path("folder"), withIntermediateDirectories: true)
        #expect(performing: { try ReportFile.write(to: scratch.path("folder")) { $0(Array("x".utf8)) } }, throws: { "\($0)".contains("is a folder; give a file path such as") })

        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.json"), withDestinationPath: "real.json")
        try ReportFile.Kind(path: scratch.path("link.json")) { _ in "written" }.write(Self.result)
        #expect(try scratch.read("real.json") == "written")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("link.json")) == "real.json")
    }

    @Test("a report is written whole, in pieces, into folders made for it, and no temporary file is left")
    func atomicWrite() throws {
        let scratch = try Scratch()
        try ReportFile.write(to: scratch.path("deep/er/report.txt")) { emit in
            emit(Array("one ".utf8))
            emit(Array("two".utf8))
        }
        #expect(try scratch.read("deep/er/report.txt") == "one two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("deep/er")) == ["report.txt"])
    }

    @Test("remove takes away an earlier run's regular file, through a symlink, and nothing else")
    func remove() throws {
        let scratch = try Scratch(files: ["old.json": "{}", "target.json": "{}"])
        ReportFile.remove(scratch.path("old.json"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("old.json")))
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.json"), withDestinationPath: "target.json")
        ReportFile.remove(scratch.path("link.json"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("target.json")))
        ReportFile.remove("/dev/null")
        var info = stat()
        #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("the settings write JUnit, JSON and HTML by default, the code-quality report when asked, none with --no-reports; '' skips one")
    func settingsFiles() throws {
        let scratch = try Scratch()
        var settings = ReportSettings()
        #expect(settings.files.map(\.path) == ["Reports/junit.xml", "Reports/report.json", "Reports/report.html"])
        (settings.junit, settings.json, settings.html, settings.codeQuality) = (scratch.path("j.xml"), "", scratch.path("r.html"), scratch.path("cq.json"))
        #expect(settings.files.map(\.path) == [scratch.path("j.xml"), scratch.path("r.html"), scratch.path("cq.json")])
        try settings.write(Self.result)
        #expect(try scratch.read("j.xml").contains("<testsuites"))
        #expect(try scratch.read("r.html").contains("<html"))
        #expect(FileManager.default.fileExists(atPath: scratch.path("cq.json")))
        settings.noReports = true
        #expect(settings.files.isEmpty)
    }

    @Test("a baseline that is missing or not a JSON report is refused with what was wrong; the gate is attached either way")
    func baseline() throws {
        let scratch = try Scratch(files: ["not.json": "hello"])
        var settings = ReportSettings()
        #expect(try settings.readBaseline() == nil)
        settings.baseline = scratch.path("missing.json")
        #expect(performing: { try settings.readBaseline() }, throws: { "\($0)".hasPrefix("--baseline: cannot read '\(scratch.path("missing.json"))'") })
        settings.baseline = scratch.path("not.json")
        #expect(performing: { try settings.readBaseline() }, throws: { "\($0)".hasPrefix("--baseline: ") })
        settings.failOn = .newFailures
        var result = Self.result
        settings.applyBaseline(to: &result, previous: nil)
        #expect(result.failOn == .newFailures && result.baseline == nil)
    }
}
