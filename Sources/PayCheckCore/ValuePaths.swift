/// A JSON value as its leaves by path, and the noise rules that say which paths may differ between two runs of the
/// same exchange: drift compares a recording's answers with the mock's by them, replay a recording's requests with the
/// ones a suite sends now.
package enum ValuePaths {
    /// Every leaf of a JSON value by its path; array items share one path (`items[]`, the first item's value kept), so a
    /// longer list is no drift.
    package static func flatten(_ value: Value) -> [String: Value] { leaves(value, indexingItems: false) }

    /// Every leaf of a JSON value by its path with each item's index (`items[0].sku`): two lists differ where their
    /// items do.
    package static func leaves(_ value: Value) -> [String: Value] { leaves(value, indexingItems: true) }

    private static func leaves(_ value: Value, indexingItems: Bool) -> [String: Value] {
        var out: [String: Value] = [:]
        func walk(_ value: Value, _ path: String) {
            switch value {
            case .object(let members):
                // An empty body is a leaf of its own where items are told apart; drift leaves the root out.
                if members.isEmpty, indexingItems || !path.isEmpty { out[path] = value }
                for (key, member) in members { walk(member, path.isEmpty ? key : path + "." + key) }
            case .array(let items):
                if items.isEmpty { out[path] = value }
                for (index, item) in items.enumerated() { walk(item, indexingItems ? "\(path)[\(index)]" : path + "[]") }
            default:
                if indexingItems || out[path] == nil { out[path] = value }
            }
        }
        walk(value, "")
        return out
    }

    /// Whether a path's value may legitimately differ: a glob (`*` within a segment) over the whole path, or over its
    /// last field name when the rule has no dot. Item indexes (`[]`, `[3]`) are left out before matching.
    package static func isNoise(_ path: String, _ rules: [String]) -> Bool {
        let bare = path.replacing(#/\[\d*\]/#, with: "")
        let name = bare.split(separator: ".").last.map(String.init) ?? bare
        return rules.contains { rule in glob(rule, rule.contains(".") ? bare : name) }
    }

    /// `*` matches any run of characters; everything else itself, ignoring case.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.lowercased()), t = Array(text.lowercased())
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
