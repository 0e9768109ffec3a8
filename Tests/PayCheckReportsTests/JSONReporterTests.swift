import Foundation
import PayCheckCore
import PayCheckRunner
import Testing

@testable import PayCheckReports

@Suite("JSON reporter")
struct JSONReporterTests {
    @Test("matches the golden file")
    func golden() {
        assertSnapshot(JSONReporter.render(Fixture.run()), named: "report", ext: "json")
    }

    @Test("parses back with the run's counts, exit code and coverage")
    func parsesBack() throws {
        let text = JSONReporter.render(Fixture.run())
        let report = try #require(JSONText.parse(text))
        guard case .object(let top) = report else { Issue.record("not an object"); return }
        #expect(top["schemaVersion"] == 1)
        #expect(top["tool"] == "paycheck")
        #expect(top["exitCode"] == 3)
        #expect(top["startedAt"] == "2026-01-15T10:00:00.000Z")
        #expect(top["counts"] == ["total": 7, "passed": 3, "failed": 1, "errors": 1, "skipped": 2])
        #expect(
            top["coverage"] == [
                "placetopay": [
                    "outcomes": ["declined", "pending", "succeeded"],
                    "nativeStates": ["APPROVED", "PENDING", "REJECTED"],
                    "errorCodes": [["class": "P", "code": "05", "id": "P/05"]],
                    "mapping": [
                        ["state": "APPROVED", "outcome": "succeeded", "covered": true],
                        ["state": "PENDING", "outcome": "pending", "covered": true],
                        ["state": "REJECTED/?C", "outcome": "canceled", "covered": false],
                        ["state": "REJECTED", "outcome": "declined", "covered": true],
                    ],
                    "catalog": [
                        ["code": "05", "class": "P", "covered": true],
                        ["code": "102", "class": "A", "covered": false],
                    ],
                ]
            ])
        // Control characters are escaped, never written raw.
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(text.contains(#"\u0000\u0007\u001b[31m"#))
    }

    @Test("every top-level key of the report is documented in the schema, and vice versa")
    func topLevelKeysInSchema() throws {
        let schema = try #require(JSONText.parse(JSONReportSchema.jsonSchema), "the schema is not valid JSON")
        guard case .object(let schemaTop) = schema, case .object(let properties)? = schemaTop["properties"],
            case .object(let report) = JSONReporter.value(Fixture.run())
        else { Issue.record("unexpected shapes"); return }
        #expect(Set(report.keys) == Set(properties.keys))
        #expect(schemaTop["required"].map { Set(($0.arrayValue ?? []).compactMap(\.stringValue)) } == Set(report.keys))
    }

    @Test("the whole report conforms to the schema (types, required and unknown keys)")
    func conformsToSchema() throws {
        let schema = try #require(JSONText.parse(JSONReportSchema.jsonSchema))
        let validator = SchemaChecker(root: schema)
        var problems: [String] = []
        validator.check(JSONReporter.value(Fixture.run()), against: schema, at: "$", problems: &problems)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // The checker itself notices a stray key.
        var stray: [String] = []
        validator.check(["counts": ["total": 1]], against: schema, at: "$", problems: &stray)
        #expect(!stray.isEmpty)
    }

    @Test("an empty run is still a complete document")
    func emptyRun() throws {
        let run = RunResult(suites: [], target: "mock", targetKind: "mock", version: "1", hostname: "h", startedAt: Fixture.base, duration: 0)
        let schema = try #require(JSONText.parse(JSONReportSchema.jsonSchema))
        var problems: [String] = []
        SchemaChecker(root: schema).check(JSONReporter.value(run), against: schema, at: "$", problems: &problems)
        #expect(problems.isEmpty, "\(problems)")
        #expect(JSONReporter.render(run).hasSuffix("}\n"))
        #expect(JSONReporter.render(run) == JSONText.encode(JSONReporter.value(run), pretty: true) + "\n")
    }

    @Test("the report written in pieces is the report's value written whole, byte for byte")
    func streamedMatchesWhole() {
        // 300 copies of the fixture's suites: more than 64 KiB, so the text arrives in several pieces.
        var run = Fixture.run()
        run.suites = Array(repeating: run.suites, count: 150).flatMap { $0 }
        var pieces: [[UInt8]] = []
        JSONReporter.write(run) { pieces.append($0) }
        #expect(pieces.count > 2)
        #expect(pieces.dropLast().allSatisfy { $0.count >= 64 * 1024 })
        let whole = JSONText.encodeBytes(JSONReporter.value(run), pretty: true) + Array("\n".utf8)
        #expect(pieces.flatMap { $0 } == whole)
    }
}

/// A small JSON Schema checker covering the keywords the report schema uses: `$ref` (local), `type`, `const`,
/// `enum`, `properties`, `required`, `additionalProperties`, `items`, `prefixItems`, `pattern`, `minimum`.
private struct SchemaChecker {
    let root: Value

    func check(_ value: Value, against schema: Value, at path: String, problems: inout [String]) {
        guard case .object(let s) = schema else { return }
        if case .string(let ref)? = s["$ref"] {
            guard let target = resolve(ref) else { problems.append("\(path): unresolved \(ref)"); return }
            check(value, against: target, at: path, problems: &problems)
        }
        if let type = s["type"] {
            let allowed = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue].compactMap { $0 }
            if !allowed.contains(where: { Self.matches(value, type: $0) }) {
                problems.append("\(path): \(value.typeName) is not \(allowed)")
            }
        }
        if let constant = s["const"], !constant.matches(value) { problems.append("\(path): \(value.brief) is not \(constant.brief)") }
        if case .array(let options)? = s["enum"], !options.contains(where: { $0.matches(value) }) {
            problems.append("\(path): \(value.brief) is not one of \(options.map(\.brief))")
        }
        if case .string(let pattern)? = s["pattern"], case .string(let text) = value,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            problems.append("\(path): \(value.brief) does not match \(pattern)")
        }
        if let minimum = s["minimum"]?.number, let number = value.number, number < minimum {
            problems.append("\(path): \(number) < \(minimum)")
        }
        if case .object(let members) = value {
            let properties: [String: Value]
            if case .object(let p)? = s["properties"] { properties = p } else { properties = [:] }
            for key in s["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[key] == nil {
                problems.append("\(path): missing required \"\(key)\"")
            }
            for (key, member) in members {
                if let sub = properties[key] {
                    check(member, against: sub, at: "\(path).\(key)", problems: &problems)
                } else if let extra = s["additionalProperties"] {
                    if extra == .bool(false) {
                        problems.append("\(path): unknown key \"\(key)\"")
                    } else {
                        check(member, against: extra, at: "\(path).\(key)", problems: &problems)
                    }
                }
            }
        }
        if case .array(let items) = value {
            let prefix = s["prefixItems"]?.arrayValue ?? []
            for (index, item) in items.enumerated() {
                if index < prefix.count {
                    check(item, against: prefix[index], at: "\(path)[\(index)]", problems: &problems)
                } else if let itemSchema = s["items"] {
                    check(item, against: itemSchema, at: "\(path)[\(index)]", problems: &problems)
                }
            }
        }
    }

    /// `#/$defs/name`.
    private func resolve(_ ref: String) -> Value? {
        guard ref.hasPrefix("#/") else { return nil }
        var node: Value? = root
        for part in ref.dropFirst(2).split(separator: "/") {
            guard case .object(let o)? = node else { return nil }
            node = o[String(part)]
        }
        return node
    }

    private static func matches(_ value: Value, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("integer", .int),
            ("number", .int), ("number", .double):
            true
        case ("integer", .double(let d)): d.rounded() == d
        default: false
        }
    }
}

extension Value {
    /// The elements when this is an array.
    fileprivate var arrayValue: [Value]? { if case .array(let a) = self { a } else { nil } }
    /// The text when this is a string.
    fileprivate var stringValue: String? { if case .string(let s) = self { s } else { nil } }
}
