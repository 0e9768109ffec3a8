import Foundation
import PayCheckCore
import Testing

/// Inputs that once took minutes or gigabytes: each is now bounded, with a located error.
@Suite("Bounded work")
struct BoundedWorkTests {
    @Test("includes that fan out (each file includes the next four times) stop with a located error")
    func includeFanOut() {
        var files: [String: String] = ["main.yaml": "suite: fan\ncases:\n  - name: c\n    steps:\n      - include: f0.yaml\n"]
        for level in 0..<12 {
            let next = level == 11 ? "      - wait: 1ms\n" : String(repeating: "      - include: f\(level + 1).yaml\n", count: 4)
            files["f\(level).yaml"] = "steps:\n" + next
        }
        let sources = files
        let loader = SuiteLoader(readFile: { path in
            guard let text = sources[URL(fileURLWithPath: path).lastPathComponent] else { throw CocoaError(.fileNoSuchFile) }
            return text
        })
        let result = loader.load(files: ["main.yaml"])
        #expect(result.suites.isEmpty)
        let diagnostic = result.diagnostics.first { $0.message.contains("more than 10000") }
        #expect(diagnostic != nil, "\(result.diagnostics.map(\.description))")
        #expect(diagnostic?.location != nil)
    }

    @Test("2,000 nested template calls are a located error in lint, run and list — not a stack overflow")
    func deeplyNestedTemplate() {
        let nested = String(repeating: "uuid(", count: 2000) + String(repeating: ")", count: 2000)
        let yaml = "suite: s\ncases:\n  - name: c\n    steps:\n      - http: { url: 'http://x/{{ \(nested) }}' }\n"
        let (suite, diagnostics) = SuiteLoader().parse(text: yaml, file: "deep.yaml")
        #expect(suite == nil)
        #expect(diagnostics.first?.message == "function calls are nested more than 16 deep in a template")
        #expect(diagnostics.first?.location == SourceLocation(file: "deep.yaml", line: 5, column: 22))
    }

    @Test("variables that double each other stop at 1 MiB with an error at the template")
    func doublingVariables() throws {
        var variables: [String: Value] = ["v0": "0123456789abcdef"]
        let location = SourceLocation(file: "d.yaml", line: 3, column: 9)
        var failure: TemplateRenderer.RenderError?
        for index in 1...30 {
            let template = try Template.parse("{{ v\(index - 1) }}{{ v\(index - 1) }}", at: location)
            do {
                variables["v\(index)"] = try TemplateRenderer(variables: variables, environment: [:], now: { Date() }, random: { 4 }).render(template)
            } catch {
                failure = error
                break
            }
        }
        #expect(failure?.message.contains("renders to more than 1 MiB") == true)
        #expect(failure?.location == location)
        #expect(variables.count < 20)
    }

    @Test("a variable holding more than 1 MiB is refused where a template uses it alone, as an error at the template")
    func oversizedVariable() throws {
        let location = SourceLocation(file: "d.yaml", line: 4, column: 11)
        let renderer = TemplateRenderer(variables: ["big": .string(String(repeating: "x", count: (1 << 20) + 1))])
        #expect {
            _ = try renderer.render(try Template.parse("{{ big }}", at: location))
        } throws: { error in
            (error as? TemplateRenderer.RenderError)?.message.contains("renders to more than 1 MiB") == true
                && (error as? TemplateRenderer.RenderError)?.location == location
        }
    }

    @Test("lint refuses a literal value of more than 1 MiB, at its place")
    func oversizedLiteral() {
        let body = String(repeating: "x", count: (1 << 20) + 10)
        let yaml = "suite: s\ncases:\n  - name: c\n    steps:\n      - http: { method: POST, url: 'http://x', body: \"\(body)\" }\n"
        let (suite, diagnostics) = SuiteLoader().parse(text: yaml, file: "big.yaml")
        let refused = suite == nil
        #expect(refused)
        #expect(diagnostics.contains { $0.message.contains("is more than the 1 MiB a value may be") && $0.location?.line == 5 }, "\(diagnostics.map(\.description))")
    }

    @Test("a catastrophically backtracking pattern is stopped at its budget, and at once when the task is cancelled")
    func catastrophicRegex() async throws {
        let regex = try NSRegularExpression(pattern: "^(a+)+$")
        let text = String(repeating: "a", count: 40) + "!"
        #expect(throws: BoundedRegex.Stopped.self) { try BoundedRegex.firstMatch(regex, in: text, budget: 0.05) }
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { () throws(BoundedRegex.Stopped) in try BoundedRegex.firstMatch(regex, in: text, budget: 3600) != nil }
        }
        guard case .failure(let stopped) = await cancelled.value else {
            Issue.record("the cancelled match did not stop")
            return
        }
        #expect(stopped.cancelled)
        #expect(try BoundedRegex.firstMatch(regex, in: "aaaa") != nil)
    }
}
