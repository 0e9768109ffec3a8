import AsyncHTTPClient
import Foundation
import NIOCore
import PayCheckCore
import Testing

/// Card numbers beyond their last four digits are never kept or shown: the built-in suites of every provider whose
/// payer types a card (PlacetoPay, Yuno, MIT) run against a standalone mock with every transcript kept, and no full
/// number appears in the console, any report or the mock's journal.
@Suite("Card numbers in outputs and the journal")
struct CardSentinelTests {
    /// The repository's root (the built-in suites live there).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every card number the payer actions send is masked to its last four digits in every output and the journal")
    func cardsMasked() async throws {
        let cli = try CLI(files: [:])
        let (mock, base) = try cli.startStandaloneMock()
        defer { if mock.isRunning { mock.terminate() } }
        let suites = ["placetopay", "yuno", "mit"].map { Self.root.appendingPathComponent("Suites/\($0)").path }
        let run = try cli.run(
            ["run"] + suites + [
                "--target", "url=\(base)", "--transcripts", "all", "--verbose", "--report-junit", "junit.xml",
                "--report-json", "report.json", "--report-html", "report.html",
            ])
        #expect(run.status == 0, "\(run.stdout.suffix(2000))\(run.stderr.suffix(2000))")
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/__paycheck/journal"), timeout: .seconds(30))
        let journal = String(buffer: try await response.body.collect(upTo: 64 << 20))

        // Every full card number the suites type in (PlacetoPay's, Yuno's and MIT's test cards).
        let texts = try suites.flatMap { folder in
            try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.map {
                try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)
            }
        }
        let pattern = try NSRegularExpression(pattern: #"(?<![0-9])[0-9]{15,16}(?![0-9])"#)
        let cards = Set(
            texts.flatMap { text in
                pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
            }.filter(CardNumberMask.luhn))
        #expect(cards.count >= 10, "\(cards)")

        var outputs = ["stdout": run.stdout, "stderr": run.stderr, "journal": journal]
        for name in try FileManager.default.subpathsOfDirectory(atPath: cli.folder.path) {
            let path = cli.folder.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            outputs[name] = try String(contentsOfFile: path, encoding: .utf8)
        }
        for (name, text) in outputs {
            for card in cards { #expect(!text.contains(card), "card \(card) in \(name)") }
        }
        // The cards went through: the journal and the transcripts show them masked.
        for text in [journal, outputs["report.json"] ?? ""] { #expect(text.contains("••••••••••••0081")) }
    }
}
