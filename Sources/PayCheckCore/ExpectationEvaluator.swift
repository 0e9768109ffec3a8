import Foundation

/// Checks an observation against an `expect:` block, rendering expected values with the current variables.
package struct ExpectationEvaluator: Sendable {
    /// Renders templates in expected values.
    package var renderer: TemplateRenderer

    /// Creates an evaluator.
    package init(renderer: TemplateRenderer) { self.renderer = renderer }

    /// Every mismatch (empty when all expectations hold). Template errors are thrown.
    package func evaluate(_ expectations: Expectations, against observation: Observation) throws(TemplateRenderer.RenderError) -> [Mismatch] {
        var mismatches: [Mismatch] = []
        if let status = expectations.status {
            mismatches += try evaluate(status, actual: observation.status.map(Value.int), subject: "status", kind: .status)
        }
        for (name, check) in expectations.headers {
            mismatches += try evaluate(check, actual: observation.header(name).map(Value.string), subject: "header \(name)", kind: .header)
        }
        for (path, check) in expectations.body {
            let actual = observation.body.flatMap { path.lookup(in: $0) }
            let subject = path.components.isEmpty ? "body" : "body.\(path)"
            mismatches += try evaluate(check, actual: actual, subject: subject, kind: .body)
        }
        if let outcome = expectations.outcome {
            let actual = observation.outcome.map { Value.string($0.rawValue) }
            var found = try evaluate(outcome, actual: actual, subject: "outcome", kind: .outcome)
            if let native = observation.nativeState {
                for i in found.indices { found[i].actual.annotate("(from native state \(native))") }
            }
            mismatches += found
        }
        for (field, check) in expectations.error {
            // Error fields are identifiers: `code: 102` and `code: "102"` both match the code "102".
            let actual = observation.error?[field].map(Value.string)
            mismatches += try evaluate(check, actual: actual, subject: "error.\(field)", kind: .errorCode, asText: true)
        }
        return mismatches
    }

    /// Applies every matcher of a check to an actual value (`nil` = absent).
    /// With `asText`, expected scalars compare by their text (error codes are identifiers, not numbers).
    package func evaluate(_ check: Check, actual: Value?, subject: String, kind: Mismatch.Kind, asText: Bool = false) throws(TemplateRenderer.RenderError) -> [Mismatch] {
        var out: [Mismatch] = []
        for located in check.matchers {
            if let (expected, ok) = try apply(located.matcher, to: actual, asText: asText, at: located.location), !ok {
                out.append(Mismatch(location: located.location, subject: subject, expected: expected, actual: .value(actual), kind: kind))
            }
        }
        return out
    }

    /// Returns what the matcher wanted and whether it holds.
    private func apply(
        _ matcher: Matcher, to actual: Value?, asText: Bool, at location: SourceLocation
    ) throws(TemplateRenderer.RenderError) -> (Mismatch.Expected, Bool)? {
        func render(_ t: TemplateValue) throws(TemplateRenderer.RenderError) -> Value {
            let value = try renderer.render(t)
            guard asText else { return value }
            switch value {
            case .int, .double, .bool: return .string(value.interpolated)
            case .array(let items): return .array(items.map { $0.isContainer || $0 == .null ? $0 : .string($0.interpolated) })
            default: return value
            }
        }
        switch matcher {
        case .eq(let t):
            let expected = try render(t)
            return (.matcher("eq", expected), actual.map { $0.matches(expected) } ?? false)
        case .ne(let t):
            let expected = try render(t)
            return (.matcher("ne", expected), !(actual.map { $0.matches(expected) } ?? false))
        case .exists(let wanted):
            return (.presence(wanted), (actual != nil) == wanted)
        case .type(let name):
            guard let actual else { return (.type(name), false) }
            let ok = actual.typeName == name || (name == "number" && actual.number != nil)
            return (.type(name), ok)
        case .matches(let pattern):
            guard let actual, !(actual.isContainer) else { return (.pattern(pattern), false) }
            let text = actual.interpolated
            var ok = false
            if let regex = try? NSRegularExpression(pattern: pattern) {
                do {
                    ok = try BoundedRegex.firstMatch(regex, in: text) != nil
                } catch {
                    throw TemplateRenderer.RenderError(location: location, message: error.description)
                }
            }
            return (.pattern(pattern), ok)
        case .contains(let t):
            let expected = try render(t)
            let words = Mismatch.Expected.matcher("contains", expected)
            switch actual {
            case .string(let s)?: return (words, s.contains(expected.interpolated))
            case .array(let items)?: return (words, items.contains { $0.matches(expected) })
            case .object(let members)?: return (words, members[expected.interpolated] != nil)
            default: return (words, false)
            }
        case .oneOf(let t):
            let expected = try render(t)
            guard case .array(let options) = expected else { return (.matcher("in", expected), false) }
            return (.matcher("in", expected), actual.map { a in options.contains { a.matches($0) } } ?? false)
        case .lt(let t): return try compare(actual, t, "lt", <)
        case .le(let t): return try compare(actual, t, "le", <=)
        case .gt(let t): return try compare(actual, t, "gt", >)
        case .ge(let t): return try compare(actual, t, "ge", >=)
        case .length(let inner):
            let length: Value? =
                switch actual {
                case .string(let s)?: .int(s.count)
                case .array(let a)?: .int(a.count)
                case .object(let o)?: .int(o.count)
                default: nil
                }
            let failures = try evaluate(inner, actual: length, subject: "length", kind: .body)
            let words = Mismatch.Expected.words("length " + inner.matchers.map { describe($0.matcher) }.joined(separator: ", "))
            return (words, length != nil && failures.isEmpty)
        }
    }

    private func compare(_ actual: Value?, _ t: TemplateValue, _ word: String, _ op: (Double, Double) -> Bool) throws(TemplateRenderer.RenderError) -> (Mismatch.Expected, Bool) {
        let expected = try renderer.render(t)
        let a = actual?.number ?? actual.flatMap { if case .string(let s) = $0 { Double(s) } else { nil } }
        guard let a, let e = expected.number else { return (.matcher(word, expected), false) }
        return (.matcher(word, expected), op(a, e))
    }

    private func describe(_ matcher: Matcher) -> String {
        switch matcher {
        case .eq(.literal(let v, _)): "eq \(v.brief)"
        case .type(let n): "type \(n)"
        case .length: "length …"
        default: matcher.keyword + " …"
        }
    }
}

extension Value {
    /// Whether this is an array or an object.
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}
