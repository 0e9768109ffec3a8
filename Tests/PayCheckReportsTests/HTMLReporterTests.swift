import Foundation
import PayCheckReports
import PayCheckRunner
import Testing

@Suite("HTML reporter")
struct HTMLReporterTests {
    @Test("matches the golden file")
    func golden() {
        assertSnapshot(HTMLReporter.render(Fixture.run()), named: "report", ext: "html")
    }

    @Test("is one self-contained, well-formed page: failures first, coverage matrix, no scripts or external assets")
    func selfContained() throws {
        let html = HTMLReporter.render(Fixture.run())
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href=\"http"))
        let failures = try #require(html.range(of: "Failures and errors"))
        let suites = try #require(html.range(of: "<h2>Suites</h2>"))
        #expect(failures.lowerBound < suites.lowerBound)
        #expect(html.contains("3/4 mapped states"))
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        // Everything inserted is escaped: the fixture's response body holds `<b>Tarjeta</b>`.
        #expect(!html.contains("<b>Tarjeta</b>") && html.contains("&lt;b&gt;Tarjeta&lt;/b&gt;"))
    }
}
