import Foundation
import Yams

extension SuiteParser {
    mutating func expectations(_ node: Node) -> Expectations? {
        guard let pairs = mapping(node, "'expect'") else { return nil }
        checkKeys(pairs, allowed: SuiteKeys.expect, in: "'expect'")
        var result = Expectations(location: location(node))
        for pair in pairs {
            switch pair.key {
            case "status":
                result.status = check(pair.value)
                numericCheck(result.status, subject: "status", hint: "write the status unquoted, e.g. 'status: 401'")
                if case .literal(let v, _)? = result.status?.matchers.first.map({ m -> TemplateValue? in if case .eq(let t) = m.matcher { t } else { nil } }) ?? nil,
                    let n = v.number, !(100...599).contains(n)
                {
                    error(pair.value, "status \(Value.format(n)) is not an HTTP status (100–599)")
                }
            case "headers":
                for header in mapping(pair.value, "'headers'") ?? [] {
                    if let c = check(header.value) { result.headers.append((header.key, c)) }
                }
            case "body":
                if let pairs = mapping(pair.value, "'body' (path → expected value)") {
                    for entry in pairs {
                        do {
                            let path = try ValuePath(parsing: entry.key)
                            if let c = check(entry.value) { result.body.append((path, c)) }
                        } catch {
                            self.error(entry.keyNode, error.message, hint: "paths look like 'a.b[0].c' or '$' for the whole body")
                        }
                    }
                }
            case "outcome":
                result.outcome = check(pair.value)
                if let c = result.outcome { validateWords(c, allowed: SuiteKeys.outcomes, what: "outcome") }
                if provider == nil {
                    error(pair.keyNode, "'outcome' needs a provider to map native states", hint: "add 'provider: <id>' to the suite")
                }
            case "error":
                if provider == nil {
                    error(pair.keyNode, "'error' needs a provider's error catalog", hint: "add 'provider: <id>' to the suite")
                }
                for entry in mapping(pair.value, "'error'") ?? [] {
                    guard SuiteKeys.error.contains(entry.key) else {
                        checkKeys([entry], allowed: SuiteKeys.error, in: "'error'")
                        continue
                    }
                    if let c = check(entry.value) {
                        if entry.key == "class" { validateWords(c, allowed: SuiteKeys.errorClasses, what: "error class") }
                        result.error.append((entry.key, c))
                    }
                }
            default: break
            }
        }
        return result
    }

    /// Literal expected words (outcomes, error classes) must be known ones.
    mutating func validateWords(_ check: Check, allowed: [String], what: String) {
        for located in check.matchers {
            var candidates: [Value] = []
            switch located.matcher {
            case .eq(.literal(let v, _)), .ne(.literal(let v, _)): candidates = [v]
            case .oneOf(.literal(.array(let vs), _)): candidates = vs
            default: continue
            }
            for case .string(let word) in candidates where !allowed.contains(word) {
                let hint = Suggest.nearest(word, in: allowed).map { "did you mean '\($0)'?" } ?? "one of: " + allowed.joined(separator: ", ")
                error(at: located.location, "unknown \(what) '\(word)'", hint: hint)
            }
        }
    }

    /// A plain value (an `eq` check) or a mapping of matchers.
    mutating func check(_ node: Node) -> Check? {
        let here = location(node)
        guard let mappingNode = node.mapping else {
            return Check(matchers: [LocatedMatcher(.eq(templateValue(node)), at: here)], location: here)
        }
        let keys = mappingNode.keys.compactMap { $0.scalar?.string }
        let matcherKeys = keys.filter { Matcher.keywords.contains($0) }
        if matcherKeys.isEmpty {
            // A mapping of plain keys is an object to compare with `eq` — unless every key looks like a misspelt
            // matcher (`equals`, `regex`, `lenght`): then each is an error, where a run would compare a literal object.
            let nearMisses = keys.map(Matcher.nearMiss)
            if !keys.isEmpty, keys.count == mappingNode.keys.count, nearMisses.allSatisfy({ $0 != nil }) {
                for (keyNode, near) in zip(mappingNode.keys, nearMisses) {
                    let key = keyNode.scalar?.string ?? ""
                    error(keyNode, "unknown matcher '\(key)'", hint: "did you mean '\(near ?? "eq")'? (to compare with an object, write 'eq: { \(key): … }')")
                }
                return nil
            }
            return Check(matchers: [LocatedMatcher(.eq(templateValue(node)), at: here)], location: here)
        }
        guard let pairs = mapping(node, "a check") else { return nil }
        var matchers: [LocatedMatcher] = []
        for pair in pairs {
            guard Matcher.keywords.contains(pair.key) else {
                let hint =
                    Matcher.nearMiss(pair.key).map { "did you mean '\($0)'?" }
                    ?? "matchers: " + Matcher.keywords.joined(separator: ", ")
                error(pair.keyNode, "unknown matcher '\(pair.key)'", hint: hint)
                continue
            }
            if let m = matcher(pair.key, pair.value) { matchers.append(LocatedMatcher(m, at: location(pair.value))) }
        }
        return Check(matchers: matchers, location: here)
    }

    mutating func matcher(_ keyword: String, _ node: Node) -> Matcher? {
        switch keyword {
        case "eq": return .eq(templateValue(node))
        case "ne": return .ne(templateValue(node))
        case "exists":
            guard let b = node.bool, node.tagName == .bool else {
                error(node, "'exists' takes true or false, found \(describe(node))")
                return nil
            }
            return .exists(b)
        case "type":
            guard let name = string(node, "'type'") else { return nil }
            guard Matcher.typeNames.contains(name) else {
                let hint = Suggest.nearest(name, in: Matcher.typeNames).map { "did you mean '\($0)'?" } ?? "one of: " + Matcher.typeNames.joined(separator: ", ")
                error(node, "unknown type '\(name)'", hint: hint)
                return nil
            }
            return .type(name)
        case "matches":
            guard let pattern = string(node, "'matches'") else { return nil }
            do {
                _ = try NSRegularExpression(pattern: pattern)
            } catch {
                self.error(node, "invalid regular expression '\(pattern)'", hint: "check brackets and escapes; in YAML prefer single quotes around patterns")
                return nil
            }
            return .matches(pattern)
        case "contains": return .contains(templateValue(node))
        case "in":
            let value = templateValue(node)
            switch value {
            case .array, .literal(.array, _): return .oneOf(value)
            default:
                error(node, "'in' takes a list of allowed values, found \(describe(node))")
                return nil
            }
        case "lt", "le", "gt", "ge":
            let value = templateValue(node)
            if case .literal(let v, _) = value, v.number == nil {
                error(node, "'\(keyword)' compares numbers, found \(describe(node))")
                return nil
            }
            switch keyword {
            case "lt": return .lt(value)
            case "le": return .le(value)
            case "gt": return .gt(value)
            default: return .ge(value)
            }
        case "length":
            guard let inner = check(node) else { return nil }
            numericCheck(inner, subject: "'length'", hint: "a length is a count, e.g. 'length: 3' or 'length: { gt: 0 }'")
            return .length(inner)
        default:
            return nil
        }
    }

    mutating func captures(_ node: Node) -> [Capture] {
        guard let pairs = mapping(node, "'capture' (name → source)") else { return [] }
        var result: [Capture] = []
        for pair in pairs {
            guard SuiteParser.isIdentifier(pair.key) else {
                error(pair.keyNode, "variable name '\(pair.key)' is not valid", hint: "use letters, digits, '_' and '-'")
                continue
            }
            let here = location(pair.keyNode)
            if pair.value.mapping != nil {
                guard let options = mapping(pair.value, "a capture") else { continue }
                checkKeys(options, allowed: SuiteKeys.capture, in: "a capture")
                var secret = false
                var source: Capture.Source?
                for option in options {
                    switch option.key {
                    case "secret":
                        guard option.value.tagName == .bool, let b = option.value.bool else {
                            error(option.value, "'secret' takes true or false, found \(describe(option.value))")
                            continue
                        }
                        secret = b
                    case "from": source = captureSource(option.value)
                    case "regex":
                        guard let pattern = string(option.value, "'regex'") else { continue }
                        if (try? NSRegularExpression(pattern: pattern)) == nil {
                            error(option.value, "invalid regular expression '\(pattern)'")
                            continue
                        }
                        source = .regex(pattern)
                    default: break
                    }
                }
                if options.contains(where: { $0.key == "from" }) && options.contains(where: { $0.key == "regex" }) {
                    error(pair.value, "a capture takes 'from' or 'regex', not both")
                } else if let source {
                    result.append(Capture(name: pair.key, source: source, secret: secret, location: here))
                } else if !options.contains(where: { $0.key == "from" || $0.key == "regex" }) {
                    error(pair.value, "a capture needs 'from' or 'regex'")
                }
            } else if let source = captureSource(pair.value) {
                result.append(Capture(name: pair.key, source: source, location: here))
            }
        }
        return result
    }

    mutating func captureSource(_ node: Node) -> Capture.Source? {
        guard let text = nonEmptyString(node, "a capture source") else { return nil }
        let hint = "sources: body, body.<path>, header.<name>, status, outcome, or { regex: '…' }"
        if text == "status" { return .status }
        if text == "outcome" { return .outcome }
        if text == "body" { return .body(try! ValuePath(parsing: "$")) }
        if text.hasPrefix("body.") || text.hasPrefix("body[") {
            let rest = text.hasPrefix("body.") ? String(text.dropFirst(5)) : String(text.dropFirst(4))
            do {
                return .body(try ValuePath(parsing: rest))
            } catch {
                self.error(node, error.message, hint: hint)
                return nil
            }
        }
        for prefix in ["header.", "headers."] where text.hasPrefix(prefix) {
            let name = String(text.dropFirst(prefix.count))
            if name.isEmpty { break }
            return .header(name)
        }
        let head = String(text.prefix { $0 != "." && $0 != "[" })
        let near = Suggest.nearest(head, in: ["body", "header", "headers", "status", "outcome"])
        error(node, "unknown capture source '\(text)'", hint: near.map { "did you mean '\($0)…'? " + hint } ?? hint)
        return nil
    }

    mutating func retryPolicy(_ node: Node) -> RetryPolicy? {
        guard let pairs = mapping(node, "'retry'") else { return nil }
        checkKeys(pairs, allowed: SuiteKeys.retry, in: "'retry'")
        var until: Expectations?
        var every = 0.5
        var within = 10.0
        for pair in pairs {
            switch pair.key {
            case "until": until = expectations(pair.value)
            case "every":
                if let d = duration(pair.value, "'every'") {
                    if d <= 0 { error(pair.value, "'every' must be more than zero") } else { every = d }
                }
            case "for":
                if let d = duration(pair.value, "'for'") {
                    if d <= 0 { error(pair.value, "'for' must be more than zero") } else { within = d }
                }
            default: break
            }
        }
        return RetryPolicy(until: until, every: every, within: within, location: location(node))
    }

    /// Reports the literal expected values of a check that cannot be numbers (a status, a length): strings such
    /// as `"401"` or `abc`, and the matchers that never apply to a number (`matches`, `contains`, `type` other
    /// than number/integer).
    /// The hint for a matcher that cannot apply to a number.
    static let numberMatchers = "compare numbers with eq, ne, in, lt, le, gt or ge"

    mutating func numericCheck(_ check: Check?, subject: String, hint: String) {
        guard let check else { return }
        for located in check.matchers {
            var literals: [Value] = []
            switch located.matcher {
            case .eq(.literal(let v, _)), .ne(.literal(let v, _)): literals = [v]
            case .oneOf(.literal(.array(let items), _)): literals = items
            case .oneOf(.array(let items, _)): literals = items.compactMap { if case .literal(let v, _) = $0 { v } else { nil } }
            case .matches, .contains:
                error(at: located.location, "\(subject) is a number; '\(located.matcher.keyword)' never matches it", hint: Self.numberMatchers)
            case .type(let name) where name != "number" && name != "integer":
                error(at: located.location, "\(subject) is a number; 'type: \(name)' never matches it", hint: Self.numberMatchers)
            default: break
            }
            for value in literals where value.number == nil {
                error(at: located.location, "\(subject) must be a number, found \(value.brief)", hint: hint)
            }
        }
    }
}
