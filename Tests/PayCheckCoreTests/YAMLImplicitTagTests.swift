import Foundation
import Testing
import Yams

@testable import PayCheckCore

/// ``YAMLImplicitTag`` decides a plain scalar's tag without regular expressions; it must decide as Yams' default
/// resolver does, on the edge cases of each of its rules and on every scalar of every YAML file the repository ships.
@Suite("YAML implicit tags")
struct YAMLImplicitTagTests {
    static let edges = [
        "", "~", "null", "Null", "NULL", "nULL", "yes", "Yes", "YES", "yEs", "no", "On", "off", "y", "true", "True", "FALSE",
        "0", "00", "012", "019", "09", "0o17", "0o", "0o8", "0b101", "0b", "0b2", "0x1F", "0xg", "0x", "0_", "-0", "+1", "-",
        "1_000", "_1", "1:30", "1:30:59", "1:60", "1:5:", "190:20:30.15", "1:2:3:4", "-1:30", "1.", ".5", "-.5", ".5e+3",
        ".5e3", ".e5", "1e5", "1E-5", "1.5e", "1.2.3", "+1.5", ".inf", "-.Inf", "+.INF", ".nan", "-.nan", ".NaN", "1_0.5_0",
        "<<", "=", "==", "2026-01-15", "2026-1-5", "2026-01-15T10:00:00Z", "2026-01-15t10:00:00.123+01:00",
        "2026-01-15 10:00:00 -5", "2026-01-15  1:02:03.5 Z", "2026-01-15T10:00", "2026-01-15T10:00:00+1:30",
        "2026-01-15T10:00:00 ", "20260115", "createPayment", "10.00", "4110760000000081", "5 min", "31m", "v1", "tr_1",
        "https://x", "a:b", "ñ", "1ñ",
    ]

    static func yams(_ text: String) -> Yams.Tag.Name {
        Resolver.default.resolveTag(of: .scalar(Node.Scalar(text)))
    }

    @Test("the edge cases of every rule: null, bool, int, float, merge, timestamp, value")
    func edgeCases() {
        for text in Self.edges {
            #expect(YAMLImplicitTag.name(of: text) == Self.yams(text), "'\(text)'")
        }
    }

    @Test("every plain scalar of every YAML file the repository ships")
    func shippedFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var checked = 0
        for folder in ["Suites", "Packs", "Tests/CommonMistakes", "Tests/Cases", "examples", ".ci/fixtures"] {
            guard let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in files where path.hasSuffix(".yaml") || path.hasSuffix(".yml") {
                let text = try String(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(path), encoding: .utf8)
                guard let node = try? Yams.compose(yaml: text) else { continue }
                var scalars: [Node.Scalar] = []
                func walk(_ node: Node) {
                    switch node {
                    case .scalar(let scalar): if scalar.style == .plain { scalars.append(scalar) }
                    case .mapping(let mapping): for (key, value) in mapping { walk(key); walk(value) }
                    case .sequence(let sequence): sequence.forEach(walk)
                    case .alias: break
                    }
                }
                walk(node)
                for scalar in scalars {
                    #expect(YAMLImplicitTag.name(of: scalar.string) == Self.yams(scalar.string), "\(folder)/\(path): '\(scalar.string)'")
                    checked += 1
                }
            }
        }
        #expect(checked > 5_000, "\(checked) scalars")
    }
}
