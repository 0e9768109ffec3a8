/// Lint of the variables templates read, in the order a case runs (flow-sensitive): a template may read the
/// built-ins (`mock.url`, `target.kind`, `target.name`, `target.providerUrl`), variables given from outside (`--var`, `--secret`),
/// the suite's and the case's `vars` defined before it, `set:` bindings and captures of earlier steps (included
/// fragments are inlined, so their captures count too). Anything else is a located error with a suggestion, so a
/// typo is exit 2 at lint time instead of exit 3 at run time.
struct VariableFlowCheck: Sendable {
    /// The built-in variables and the members each has.
    package static let builtins: [String: [String]] = ["mock": ["url"], "target": ["kind", "name", "providerUrl"]]

    /// Names given from outside the suite.
    package var external: Set<String>

    /// Creates a check.
    package init(external: Set<String> = []) { self.external = external }

    /// Every undefined read in a suite.
    package func check(_ suite: Suite) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var defined = external.union(Self.builtins.keys)
        for binding in suite.vars {
            diagnostics += reads(binding.value, defined: defined)
            defined.insert(binding.name)
        }
        let suiteDefined = defined
        for testCase in suite.cases {
            var defined = suiteDefined
            for binding in testCase.vars {
                diagnostics += reads(binding.value, defined: defined)
                defined.insert(binding.name)
            }
            for step in testCase.steps {
                diagnostics += reads(step, defined: defined)
                if case .set(let bindings) = step.kind {
                    for binding in bindings { defined.insert(binding.name) }
                }
                for capture in step.captures { defined.insert(capture.name) }
                // `merchant: checkout` makes the order it created the case's (`order.id`, `order.payment`, …).
                if step.merchant?.action == .checkout {
                    defined.insert("order")
                }
            }
        }
        return diagnostics
    }

    /// The undefined reads of one step: its action, then its expectations (captures are defined after it).
    private func reads(_ step: Step, defined: Set<String>) -> [Diagnostic] {
        var out: [Diagnostic] = []
        switch step.kind {
        case .http(let http):
            out += reads(http.method, defined: defined) + reads(http.url, defined: defined)
            for header in http.headers { out += reads(header.value, defined: defined) }
            for query in http.query { out += reads(query.value, defined: defined) }
            switch http.body {
            case .json(let value)?: out += reads(value, defined: defined)
            case .form(let fields)?: for field in fields { out += reads(field.value, defined: defined) }
            case .text(let template)?: out += reads(template, defined: defined)
            case nil: break
            }
        case .provider(let action):
            out += reads(action.parameters, defined: defined)
            if let auth = action.auth { out += reads(auth, defined: defined) }
        case .merchant(let merchant):
            out += reads(merchant.parameters, defined: defined)
        case .set(let bindings):
            var local = defined
            for binding in bindings {
                out += reads(binding.value, defined: local)
                local.insert(binding.name)
            }
        case .wait:
            break
        }
        for expectations in [step.retry?.until, step.expect].compactMap({ $0 }) {
            out += reads(expectations, defined: defined)
        }
        return out
    }

    /// The undefined reads of an `expect:` block.
    private func reads(_ expectations: Expectations, defined: Set<String>) -> [Diagnostic] {
        var checks: [Check] = expectations.headers.map(\.check) + expectations.body.map(\.check) + expectations.error.map(\.check)
        checks += [expectations.status, expectations.outcome].compactMap { $0 }
        return checks.flatMap { reads($0, defined: defined) }
    }

    /// The undefined reads of a check's matchers.
    private func reads(_ check: Check, defined: Set<String>) -> [Diagnostic] {
        check.matchers.flatMap { located -> [Diagnostic] in
            switch located.matcher {
            case .eq(let t), .ne(let t), .contains(let t), .oneOf(let t), .lt(let t), .le(let t), .gt(let t), .ge(let t):
                return reads(t, defined: defined)
            case .length(let inner):
                return reads(inner, defined: defined)
            case .exists, .type, .matches:
                return []
            }
        }
    }

    /// The undefined reads of a template value.
    private func reads(_ value: TemplateValue, defined: Set<String>) -> [Diagnostic] {
        switch value {
        case .literal: return []
        case .string(let template): return reads(template, defined: defined)
        case .array(let items, _): return items.flatMap { reads($0, defined: defined) }
        case .object(let members, _): return members.flatMap { reads($0.value, defined: defined) }
        }
    }

    /// The undefined reads of a template.
    func reads(_ template: Template, defined: Set<String>) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for part in template.parts {
            guard case .expression(let expression, let source) = part else { continue }
            out += reads(expression, source: source, at: template.location, defined: defined)
        }
        return out
    }

    /// The undefined reads of one expression.
    private func reads(_ expression: Expression, source: String, at location: SourceLocation, defined: Set<String>) -> [Diagnostic] {
        switch expression {
        case .variable(let name, let path):
            guard defined.contains(name) else {
                let hint =
                    Suggest.nearest(name, in: Array(defined)).map { "did you mean '\($0)'?" }
                    ?? "define it in 'vars', capture it in an earlier step, or pass --var \(name)=…"
                return [Diagnostic(at: location, "undefined variable '\(name)' in '{{ \(source) }}'", hint: hint)]
            }
            guard let members = Self.builtins[name], !external.contains(name),
                case .key(let member)? = path?.components.first, !members.contains(member)
            else { return [] }
            let hint =
                Suggest.nearest(member, in: members).map { "did you mean '\(name).\($0)'?" }
                ?? "'\(name)' has: " + members.map { "\(name).\($0)" }.joined(separator: ", ")
            return [Diagnostic(at: location, "'\(name)' has no member '\(member)' in '{{ \(source) }}'", hint: hint)]
        case .call(_, let arguments):
            return arguments.flatMap { reads($0, source: source, at: location, defined: defined) }
        case .string, .number:
            return []
        }
    }
}
