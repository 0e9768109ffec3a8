import Foundation
import PayCheckCore
import PayCheckReports
import PayCheckRunner
import Testing

@Suite("Recording files")
struct RecordingFileTests {
    /// A recording folder with one case whose first exchange has `exchange` as it is written.
    static func recording(exchange: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cases"), withIntermediateDirectories: true)
        try #"{"tool": "paycheck", "schemaVersion": 1, "target": "sandbox", "providers": {}, "cases": [{"path": "cases/0001.json"}]}"#
            .write(to: folder.appendingPathComponent("recording.json"), atomically: true, encoding: .utf8)
        try #"{"file": "a.yaml", "suite": "a", "case": "c", "verdict": "passed", "exchanges": [\#(exchange)]}"#
            .write(to: folder.appendingPathComponent("cases/0001.json"), atomically: true, encoding: .utf8)
        return folder.path
    }

    @Test("a recorded exchange a replay would misread is refused, naming the file, the exchange and the field")
    func wrongTypedFieldsAreRefused() throws {
        let good = #"{"method": "GET", "url": "https://x.test/a", "status": 200, "responseBody": "{}", "requestHeaders": [], "responseHeaders": []}"#
        let folder = try Self.recording(exchange: good)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try RecordingFile.read(folder).cases.first?.exchanges.first?.status == 200)
        for (bad, field) in [
            (#"{"method": "GET", "url": "https://x.test/a", "status": "two hundred"}"#, "status"),
            (#"{"method": "GET", "url": "https://x.test/a", "status": 2000}"#, "status"),
            (#"{"method": "GET", "url": "https://x.test/a", "status": 200, "responseBody": 5}"#, "responseBody"),
            (#"{"url": "https://x.test/a", "status": 200}"#, "method"),
            (#"{"method": "GET", "url": "https://x.test/a", "responseHeaders": "x"}"#, "responseHeaders"),
        ] {
            let broken = try Self.recording(exchange: bad)
            defer { try? FileManager.default.removeItem(atPath: broken) }
            #expect {
                _ = try RecordingFile.read(broken)
            } throws: { error in
                let text = "\(error)"
                return text.contains("cases/0001.json") && text.contains("exchange 1") && text.contains(field)
            }
        }
    }
}
