import Foundation
import PayCheckCore
import PayCheckReports
import PayCheckRunner
import Testing

/// The HTML report in a real browser: headless Chromium (Debian's `chromium`) runs the page's script and dumps the
/// resulting DOM. Skipped when Chromium is not installed, unless `PAYCHECK_REQUIRE_CHROMIUM=1` (as `.ci/run` sets),
/// which turns a missing browser into a failure.
@Suite("HTML report in headless Chromium")
struct HTMLBrowserTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let required = ProcessInfo.processInfo.environment["PAYCHECK_REQUIRE_CHROMIUM"] == "1"

    /// The DOM of `html` after its script ran, opened at `fragment`.
    static func dom(_ html: String, fragment: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paycheck-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(chromium))
        process.arguments = [
            // The virtual time budget makes Chromium dump the DOM only after the page's script has run, however loaded
            // the machine is.
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/profile",
            "--virtual-time-budget=10000", "--dump-dom",
            page.absoluteString + fragment,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The `<li class="case …">` opening tags of `dom`.
    static func cases(_ dom: String) -> [String] {
        dom.components(separatedBy: "<li class=\"case ").dropFirst().map { String($0.prefix { $0 != ">" }) }
    }

    /// The count shown next to a status box.
    static func shownCount(_ dom: String, _ status: String) -> Int? {
        guard let range = dom.range(of: "data-count=\"\(status)\">") else { return nil }
        return Int(dom[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("the counts shown match the JSON report, and filtering to failed shows only the failed cases",
          .enabled(if: chromium != nil || required, "Chromium is not installed (apt-get install chromium)"))
    func filters() throws {
        guard Self.chromium != nil else {
            Issue.record("PAYCHECK_REQUIRE_CHROMIUM=1 but no Chromium was found")
            return
        }
        let result = Fixture.run()
        let json = JSONReporter.value(result)
        let html = HTMLReporter.render(result)

        let all = try Self.dom(html, fragment: "")
        let counts = try #require(json["counts"]?.objectValue)
        for (status, key) in [("passed", "passed"), ("failed", "failed"), ("error", "errors"), ("skipped", "skipped")] {
            #expect(Self.shownCount(all, status) == counts[key]?.intValue, "\(status)")
        }
        #expect(Self.cases(all).count == counts["total"]?.intValue)
        #expect(Self.cases(all).allSatisfy { !$0.contains("hidden") })

        let failed = try Self.dom(html, fragment: "#status=failed")
        let shown = Self.cases(failed).filter { !$0.contains("hidden") }
        #expect(shown.count == counts["failed"]?.intValue)
        #expect(!shown.isEmpty && shown.allSatisfy { $0.contains("data-status=\"failed\"") })
        #expect(failed.contains("<b id=\"shown\">\(shown.count)</b>"))

        // The provider filter shows that provider's cases only, and the status counts follow it.
        let ptp = result.suites.filter { $0.provider == "placetopay" }.flatMap(\.cases)
        #expect(!ptp.isEmpty && ptp.count < result.counts.total, "the fixture mixes providers")
        let byProvider = try Self.dom(html, fragment: "#provider=placetopay")
        let shownByProvider = Self.cases(byProvider).filter { !$0.contains("hidden") }
        #expect(shownByProvider.count == ptp.count)
        #expect(shownByProvider.allSatisfy { $0.contains("data-provider=\"placetopay\"") })
        #expect(byProvider.contains("<b id=\"shown\">\(ptp.count)</b>"))
        #expect(Self.shownCount(byProvider, "failed") == ptp.filter { $0.verdict == .failed }.count)
        #expect(Self.shownCount(byProvider, "passed") == ptp.filter { $0.verdict == .passed }.count)

        // A search narrows further; a stable anchor opens its case.
        let searched = try Self.dom(html, fragment: "#q=no-such-case-text")
        #expect(Self.cases(searched).allSatisfy { $0.contains("hidden") })
        let anchor = try #require(Self.cases(all).first?.components(separatedBy: "id=\"").dropFirst().first?.prefix { $0 != "\"" })
        let linked = try Self.dom(html, fragment: "#\(anchor)")
        #expect(linked.contains("id=\"\(anchor)\"") && Self.cases(linked).first { $0.contains(String(anchor)) }?.contains("target") == true)
    }
}
