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

    @Test("is one self-contained, well-formed page: failures first, coverage matrix, one inline script, no external assets")
    func selfContained() throws {
        let html = HTMLReporter.render(Fixture.run())
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.components(separatedBy: "<script").count == 2 && !html.contains("src=") && !html.contains("href=\"http"))
        let failures = try #require(html.range(of: "Failures and errors"))
        let suites = try #require(html.range(of: "<h2>Suites</h2>"))
        #expect(failures.lowerBound < suites.lowerBound)
        #expect(html.contains("3/4 mapped states"))
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        // Everything inserted is escaped: the fixture's response body holds `<b>Tarjeta</b>`.
        #expect(!html.contains("<b>Tarjeta</b>") && html.contains("&lt;b&gt;Tarjeta&lt;/b&gt;"))
    }

    @Test("every case has a stable anchor and filter data; failed cases carry their message for the search")
    func anchorsAndFilterData() throws {
        let result = Fixture.run()
        let html = HTMLReporter.render(result)
        let again = HTMLReporter.render(Fixture.run())
        let anchors = html.components(separatedBy: "id=\"case-").dropFirst().map { String($0.prefix(16)) }
        #expect(anchors.count == result.counts.total)
        #expect(Set(anchors).count == anchors.count, "anchors are unique")
        #expect(again.components(separatedBy: "id=\"case-").dropFirst().map { String($0.prefix(16)) } == anchors, "and stable")
        #expect(html.contains("data-count=failed>\(result.counts.failed)<"))
        #expect(html.contains("data-status=failed"))
    }
}
