import Foundation
import PayCheckCore
import Testing

/// Durations and their seconds.
private let validDurations: [(String, Double)] = [
    ("500ms", 0.5), ("2s", 2), ("31m", 1860), ("1h", 3600), ("2d", 172_800), ("+31m", 1860), ("-5m", -300),
    ("90", 90), ("1.5h", 5400), (" 31 m ", 1860), ("2e3ms", 2), (".5s", 0.5), ("3650d", 315_360_000),
]

/// Texts that are not durations.
private let notDurations = ["", "m", "31x", "abc", "0x10s", "infs", "nan", "1e", "--5s", "5 m s", "1..5s", "+"]

/// Texts that are durations but beyond ten years or not finite.
private let outOfBounds = ["3651d", "213504d", "1e30s", "1e19", "+1e19", "-1e19", "1e308d"]

@Suite("Durations with bounds")
struct DurationTextTests {
    @Test("durations parse to seconds", arguments: validDurations)
    func valid(_ text: String, _ seconds: Double) throws {
        #expect(try DurationText.parse(text) == seconds)
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test("non-durations are an error, not nil-and-guess", arguments: notDurations)
    func invalid(_ text: String) {
        #expect(throws: DurationError(text: text, problem: .notADuration)) { try DurationText.parse(text) }
        #expect(DurationText.seconds(text) == nil)
    }

    @Test("durations beyond ten years are an error with a message", arguments: outOfBounds)
    func bounds(_ text: String) {
        #expect(throws: DurationError(text: text, problem: .outOfBounds)) { try DurationText.parse(text) }
        let message = DurationError(text: text, problem: .outOfBounds).message
        #expect(message == "'\(text)' is longer than the limit of 3650d (10 years)")
    }

    @Test("checked amounts and nanoseconds never trap", arguments: [Double.infinity, -.infinity, .nan, 1e30, -1e30])
    func checked(_ seconds: Double) {
        #expect(throws: DurationError.self) { try DurationText.checked(seconds, text: "x") }
        let nanos = DurationText.nanoseconds(seconds)
        #expect(nanos >= 0 && nanos <= Int64(DurationText.maximumSeconds) * 1_000_000_000)
    }

    @Test("regression: 'wait: 213504d' is a located lint error, not a trap when sleeping")
    func hugeWait() throws {
        let yaml = "suite: s\ncases:\n  - name: c\n    steps:\n      - wait: 213504d\n"
        let (suite, diagnostics) = SuiteLoader(catalog: TestCatalog()).parse(text: yaml, file: "t.yaml")
        #expect(suite == nil)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.message == "'wait' must be at most 3650d (10 years), found '213504d'")
        #expect(diagnostic.location == SourceLocation(file: "t.yaml", line: 5, column: 15))
    }

    @Test("regression: now('+1e19','unix') is a located lint error, and the renderer refuses it too")
    func hugeNowOffset() throws {
        let yaml = "suite: s\ncases:\n  - name: c\n    steps:\n      - set: { t: \"{{ now('+1e19','unix') }}\" }\n"
        let (suite, diagnostics) = SuiteLoader(catalog: TestCatalog()).parse(text: yaml, file: "t.yaml")
        #expect(suite == nil)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.message.contains("now() offset '+1e19' is longer than the limit of 3650d (10 years)"), "\(diagnostic)")
        #expect(diagnostic.location?.line == 5)

        let at = SourceLocation(file: "t.yaml", line: 1, column: 1)
        let template = Template(parts: [.expression(.call(.now, [.string("+1e19"), .string("unix")]), source: "now()")], source: "{{ now() }}", location: at)
        let renderer = TemplateRenderer(now: { Date(timeIntervalSince1970: 0) })
        #expect(throws: TemplateRenderer.RenderError.self) { try renderer.render(template) }
    }

    @Test("now() with a far but allowed offset still renders as unix seconds")
    func farNowOffset() throws {
        let at = SourceLocation(file: "t.yaml", line: 1, column: 1)
        let renderer = TemplateRenderer(now: { Date(timeIntervalSince1970: 0) })
        #expect(try renderer.render(Template.parse("{{ now('+3650d', 'unix') }}", at: at)) == "315360000")
    }
}
