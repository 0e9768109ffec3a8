import Foundation
import Yams

extension SuiteParser {
    /// Parses the whole file as a suite (or recognises a step fragment meant for `include:`).
    mutating func parseSuite(fragmentAllowed: Bool) -> Outcome {
        guard let root = compose() else { return .invalid }
        guard let pairs = mapping(root, "a suite file") else { return .invalid }
        let keys = Set(pairs.map(\.key))
        if fragmentAllowed, !keys.contains("suite"), keys.contains("steps") { return .fragment }
        guard let rowsPair = pairs.first(where: { $0.key == Self.rowsKey }) else {
            return suite(root, pairs: pairs, rowKeys: []).map { .suites([$0]) } ?? .invalid
        }
        // A suite with rows is one suite per row (a provider each, say), every case of it run for every row.
        guard let rows = tableRows(rowsPair.value, of: "the suite") else { return .invalid }
        if let nameNode = pairs.first(where: { $0.key == "suite" })?.value, !Self.refersToRows(nameNode) {
            error(
                nameNode, "a suite with rows needs a name that uses a row value",
                hint: "each row is a suite of its own, e.g. 'suite: Faults · {{ row.provider }}'")
        }
        let template = Self.removing(Self.rowsKey, from: root)
        let rowKeys = rows[0].values.keys.sorted()
        let suites = perRow(rows) { parser, row -> Suite? in
            let expanded = parser.substituting(row, in: template)
            guard let pairs = parser.mapping(expanded, "a suite file") else { return nil }
            var suite = parser.suite(expanded, pairs: pairs, rowKeys: rowKeys)
            suite?.location = row.location
            return suite
        }.compactMap { $0 }
        var seen: [String: SourceLocation] = [:]
        for suite in suites {
            if let first = seen[suite.name] {
                error(
                    at: suite.location, "this row names its suite '\(suite.name)' like the row at line \(first.line)",
                    hint: "reports identify suites by name: use a row value that differs in 'suite:'")
            }
            seen[suite.name] = seen[suite.name] ?? suite.location
        }
        return suites.isEmpty ? .invalid : .suites(suites)
    }

    /// The suite of a mapping of suite keys (`rows:` already taken out and filled in).
    mutating func suite(_ root: Node, pairs: [(key: String, keyNode: Node, value: Node)], rowKeys: [String]) -> Suite? {
        checkKeys(pairs, allowed: SuiteKeys.suite, in: "the suite")
        let keys = Set(pairs.map(\.key))
        for pair in pairs where pair.key != "cases" { reportRowReferences(in: pair.value, known: rowKeys) }
        var name: String?
        var providerID: String?
        var description: String?
        var tags: [String] = []
        var vars: [Binding] = []
        var casesNode: Node?
        for pair in pairs {
            switch pair.key {
            case "suite": name = nonEmptyString(pair.value, "'suite'")
            case "provider":
                providerID = nonEmptyString(pair.value, "'provider'")
                if let id = providerID {
                    if let description = catalog.provider(id) {
                        provider = description
                    } else {
                        let known = catalog.providerIDs
                        let near = Suggest.nearest(id, in: known)
                        let hint =
                            near.map { "did you mean '\($0)'?" }
                            ?? (known.isEmpty ? "no providers are registered in this build" : "known providers: " + known.joined(separator: ", "))
                        error(pair.value, "unknown provider '\(id)'", hint: hint)
                        // The rest of the file is checked as the provider meant, so the typo is one error, not one per step.
                        provider = near.flatMap { catalog.provider($0) }
                    }
                }
            case "description": description = string(pair.value, "'description'")
            case "tags": tags = stringList(pair.value, "'tags'")
            case "vars": vars = bindings(pair.value, "'vars'")
            case "cases": casesNode = pair.value
            default: break
            }
        }
        if !keys.contains("suite") {
            error(root, "missing key 'suite' (the suite's name)", hint: "add 'suite: <name>' at the top of the file")
        }
        // A misspelt `provider:` key (already reported, with its did-you-mean): the steps are checked against the provider
        // it names, so the typo is one error, not one per step.
        if providerID == nil, provider == nil,
            let misspelt = pairs.first(where: { !SuiteKeys.suite.contains($0.key) && Suggest.nearest($0.key, in: SuiteKeys.suite) == "provider" }),
            let id = misspelt.value.scalar?.string
        {
            provider = catalog.provider(id) ?? Suggest.nearest(id, in: catalog.providerIDs).flatMap { catalog.provider($0) }
        }
        var cases: [Case] = []
        if let casesNode {
            if let sequence = casesNode.sequence {
                if sequence.isEmpty { error(casesNode, "'cases' is empty", hint: "add at least one case with 'name' and 'steps'") }
                for caseNode in sequence { cases += parseCases(caseNode, suiteRowKeys: rowKeys) }
                var seen: [String: SourceLocation] = [:]
                for c in cases {
                    if let first = seen[c.name] {
                        error(
                            at: c.location, "duplicate case name '\(c.name)' (first at line \(first.line))",
                            hint: "case names must be unique within a suite: reports identify cases by name")
                    } else {
                        seen[c.name] = c.location
                    }
                }
            } else {
                error(casesNode, "'cases' must be a list of cases, found \(describe(casesNode))")
            }
        } else {
            error(root, "missing key 'cases' (the list of cases)")
        }
        guard let name else { return nil }
        return Suite(
            file: file, name: name, provider: providerID, description: description, tags: tags, vars: vars,
            cases: cases, location: location(root))
    }

    /// The case a case node stands for, or one per row of its `rows:`.
    mutating func parseCases(_ node: Node, suiteRowKeys: [String]) -> [Case] {
        guard let pairs = mapping(node, "a case") else { return [] }
        guard let rowsPair = pairs.first(where: { $0.key == Self.rowsKey }) else {
            reportRowReferences(in: node, known: suiteRowKeys)
            return parseCase(node).map { [$0] } ?? []
        }
        guard let rows = tableRows(rowsPair.value, of: "a case", outer: Set(suiteRowKeys)) else { return [] }
        if let nameNode = pairs.first(where: { $0.key == "name" })?.value, !Self.refersToRows(nameNode) {
            error(
                nameNode, "a case with rows needs a name that uses a row value",
                hint: "each row is a case of its own in the reports, e.g. 'name: a {{ row.status }} is class S'")
        }
        let template = Self.removing(Self.rowsKey, from: node)
        let known = suiteRowKeys + rows[0].values.keys.sorted()
        return perRow(rows) { parser, row -> Case? in
            let expanded = parser.substituting(row, in: template)
            parser.reportRowReferences(in: expanded, known: known)
            var parsed = parser.parseCase(expanded)
            parsed?.location = row.location
            return parsed
        }.compactMap { $0 }
    }

    mutating func parseCase(_ node: Node) -> Case? {
        guard let pairs = mapping(node, "a case") else { return nil }
        checkKeys(pairs, allowed: SuiteKeys.case, in: "a case")
        var name: String?
        var tags: [String] = []
        var requires: [String] = []
        var mockReason: String?
        var skip: String?
        var xfail: String?
        var catches: String?
        var vars: [Binding] = []
        var steps: [Step] = []
        var sawSteps = false
        for pair in pairs {
            switch pair.key {
            case "name": name = nonEmptyString(pair.value, "'name'")
            case "tags": tags = stringList(pair.value, "'tags'")
            case "requires":
                (requires, mockReason) = requirements(pair.value)
            case "skip": skip = nonEmptyString(pair.value, "'skip' (the reason)")
            case "xfail": xfail = nonEmptyString(pair.value, "'xfail' (the reason)")
            case "catches": catches = nonEmptyString(pair.value, "'catches' (the mistake the case catches)")
            case "vars": vars = bindings(pair.value, "'vars'")
            case "steps":
                sawSteps = true
                steps = parseSteps(pair.value)
            default: break
            }
        }
        if !pairs.contains(where: { $0.key == "name" }) { error(node, "a case needs a 'name'") }
        if !sawSteps { error(node, "case '\(name ?? "?")' has no 'steps'") }
        guard let name else { return nil }
        return Case(
            name: name, tags: tags, requires: requires, skip: skip, xfail: xfail, vars: vars, steps: steps, location: location(node),
            catches: catches, mockReason: mockReason)
    }

    /// `requires:` as a list of requirements (`[mock]`) or a mapping from each to why the case needs it
    /// (`{ mock: an inactive site only the mock has }`), which a live run's skip reason shows.
    mutating func requirements(_ node: Node) -> (names: [String], mockReason: String?) {
        var names: [String] = []
        var reason: String?
        if node.mapping != nil {
            for pair in mapping(node, "'requires'") ?? [] {
                names.append(pair.key)
                if pair.key == "mock" { reason = nonEmptyString(pair.value, "'requires: { mock: … }' (why the case needs the mock)") }
            }
        } else {
            names = stringList(node, "'requires' (a list, or a mapping from each requirement to why)")
        }
        for name in names where !SuiteKeys.requirements.contains(name) {
            error(node, "unknown requirement '\(name)'", hint: "allowed: " + SuiteKeys.requirements.joined(separator: ", "))
        }
        return (names, reason)
    }

    mutating func parseSteps(_ node: Node) -> [Step] {
        guard let sequence = node.sequence else {
            error(node, "'steps' must be a list of steps, found \(describe(node))")
            return []
        }
        if sequence.isEmpty { error(node, "'steps' is empty") }
        var steps: [Step] = []
        for stepNode in sequence { steps += parseStep(stepNode) }
        return steps
    }

    /// Parses one step; `include:` expands to the included file's steps.
    mutating func parseStep(_ node: Node) -> [Step] {
        guard let pairs = mapping(node, "a step") else { return [] }
        let before = diagnostics.count
        checkKeys(pairs, allowed: SuiteKeys.stepKinds + SuiteKeys.stepCommon, in: "a step")
        let kinds = pairs.filter { SuiteKeys.stepKinds.contains($0.key) }
        guard let kindPair = kinds.first else {
            // A misspelt action was already reported with a suggestion; don't say it twice.
            if diagnostics.count == before {
                error(node, "a step needs exactly one action", hint: "one of: " + SuiteKeys.stepKinds.joined(separator: ", "))
            }
            return []
        }
        if kinds.count > 1 {
            error(kinds[1].keyNode, "a step has one action, found '\(kindPair.key)' and '\(kinds[1].key)'", hint: "split it into two steps")
            return []
        }
        let value = { (key: String) in pairs.first { $0.key == key } }
        if kindPair.key == "include" {
            for other in pairs where other.key != "include" {
                error(other.keyNode, "'\(other.key)' cannot go with 'include'", hint: "an include step only names the file")
            }
            return include(kindPair.value)
        }
        let takesParameters = ProviderAction.Kind(rawValue: kindPair.key) != nil || kindPair.key == "merchant"
        if let with = value("with"), !takesParameters {
            error(with.keyNode, "'with' goes with call, payer, mock, redirect, deeplink or merchant steps, not '\(kindPair.key)'")
        }
        if let auth = value("auth"), kindPair.key != "call" {
            error(auth.keyNode, "'auth' overrides go with 'call' steps only")
        }
        let kind: StepKind?
        switch kindPair.key {
        case "http": kind = httpStep(kindPair.value).map(StepKind.http)
        case "set": kind = .set(bindings(kindPair.value, "'set'"))
        case "wait": kind = duration(kindPair.value, "'wait'").map(StepKind.wait)
        case "merchant": kind = merchantStep(nameNode: kindPair.value, with: value("with")?.value).map(StepKind.merchant)
        default:
            kind = providerAction(
                ProviderAction.Kind(rawValue: kindPair.key) ?? .call, nameNode: kindPair.value,
                with: value("with")?.value, auth: value("auth")?.value, expectsRefusal: Self.expectsRefusal(value("expect")?.value)
            ).map(StepKind.provider)
        }
        var name: String?
        var expect: Expectations?
        var captures: [Capture] = []
        var retry: RetryPolicy?
        var timeout: Double?
        for pair in pairs {
            switch pair.key {
            case "name": name = nonEmptyString(pair.value, "'name'")
            case "expect": expect = expectations(pair.value)
            case "capture": captures = self.captures(pair.value)
            case "retry": retry = retryPolicy(pair.value)
            case "timeout":
                timeout = duration(pair.value, "'timeout'")
                if timeout == 0 { error(pair.value, "'timeout' must be more than zero") }
            default: break
            }
        }
        if case .set = kind, expect != nil || !captures.isEmpty {
            error(node, "a 'set' step has no response to expect or capture from")
        }
        guard let kind else { return [] }
        return [Step(kind: kind, name: name, expect: expect, captures: captures, retry: retry, timeout: timeout, location: location(node))]
    }

    mutating func include(_ node: Node) -> [Step] {
        guard let path = nonEmptyString(node, "'include'") else { return [] }
        let base = URL(fileURLWithPath: file).deletingLastPathComponent()
        let target = path.hasPrefix("/") ? path : base.appendingPathComponent(path).path
        let canonicalTarget = SuiteParser.canonical(target)
        if let cycleStart = includeStack.firstIndex(of: canonicalTarget) {
            let chain = (includeStack[cycleStart...] + [canonicalTarget]).map { URL(fileURLWithPath: $0).lastPathComponent }
            error(node, "include cycle: " + chain.joined(separator: " → "), hint: "an included file must not include itself, directly or indirectly")
            return []
        }
        if includeStack.count > 32 {
            error(node, "includes nested more than 32 deep")
            return []
        }
        if let steps = includeCache.steps[canonicalTarget] { return checkedExpansion(steps, at: node) }
        let text: String
        do {
            text = try loader.readFile(target)
        } catch {
            self.error(node, "cannot read included file '\(path)'", hint: "paths are relative to '\(URL(fileURLWithPath: file).lastPathComponent)'s folder")
            return []
        }
        var child = SuiteParser(file: target, text: text, catalog: catalog, loader: loader)
        child.includeStack = includeStack + [canonicalTarget]
        child.includeCache = includeCache
        child.provider = provider
        let steps = child.parseFragment()
        diagnostics += child.diagnostics
        includedSources[target] = text
        includedSources.merge(child.includedSources) { a, _ in a }
        includeCache.steps[canonicalTarget] = steps
        return checkedExpansion(steps, at: node)
    }

    /// The most steps includes may expand to in one place: far past any real suite, far below runaway fan-out.
    static let maximumIncludedSteps = 10_000

    /// The included steps, or none with an error when they are more than ``maximumIncludedSteps``.
    mutating func checkedExpansion(_ steps: [Step], at node: Node) -> [Step] {
        guard steps.count <= Self.maximumIncludedSteps else {
            error(
                node, "this include expands to \(steps.count) steps, more than \(Self.maximumIncludedSteps)",
                hint: "an included file that includes others several times multiplies its steps")
            return []
        }
        return steps
    }

    /// Parses a step fragment: `steps:` (and an optional `description:`).
    mutating func parseFragment() -> [Step] {
        guard let root = compose(), let pairs = mapping(root, "an included file") else { return [] }
        checkKeys(pairs, allowed: SuiteKeys.fragment, in: "an included file")
        guard let steps = pairs.first(where: { $0.key == "steps" }) else {
            error(root, "an included file needs 'steps:'")
            return []
        }
        let parsed = parseSteps(steps.value)
        guard parsed.count <= Self.maximumIncludedSteps else {
            error(
                steps.value, "these steps expand to \(parsed.count) steps, more than \(Self.maximumIncludedSteps)",
                hint: "an included file that includes others several times multiplies its steps")
            return []
        }
        return parsed
    }

    /// Parses an `http:` request; with `relative`, a URL may also start with `/` (a merchant contract's requests,
    /// resolved against the backend's URL).
    mutating func httpStep(_ node: Node, relative: Bool = false) -> HTTPRequestStep? {
        guard let pairs = mapping(node, "'http'") else { return nil }
        checkKeys(pairs, allowed: SuiteKeys.http, in: "'http'")
        var method = Template.literal("GET", at: location(node))
        var url: Template?
        var headers: [(name: String, value: Template)] = []
        var query: [(name: String, value: TemplateValue)] = []
        var body: HTTPRequestStep.Body?
        let bodyKeys = pairs.filter { ["json", "form", "body"].contains($0.key) }
        if bodyKeys.count > 1 {
            error(bodyKeys[1].keyNode, "'\(bodyKeys[0].key)' and '\(bodyKeys[1].key)' both give a body", hint: "use one of json, form or body")
        }
        for pair in pairs {
            switch pair.key {
            case "method":
                if let m = template(pair.value, "'method'") {
                    method = m
                    if m.singleExpression == nil, m.parts.count == 1, !SuiteKeys.methods.contains(m.source.uppercased()) {
                        let hint = Suggest.nearest(m.source.uppercased(), in: SuiteKeys.methods).map { "did you mean '\($0)'?" }
                        error(pair.value, "unknown HTTP method '\(m.source)'", hint: hint ?? "one of: " + SuiteKeys.methods.joined(separator: ", "))
                    }
                }
            case "url": url = template(pair.value, "'url'")
            case "headers":
                for header in mapping(pair.value, "'headers'") ?? [] {
                    if let t = template(header.value, "header '\(header.key)'") { headers.append((header.key, t)) }
                }
            case "query":
                for q in mapping(pair.value, "'query'") ?? [] { query.append((q.key, templateValue(q.value))) }
            case "json": body = .json(templateValue(pair.value))
            case "form":
                body = .form((mapping(pair.value, "'form'") ?? []).map { (name: $0.key, value: templateValue($0.value)) })
            case "body": if let t = template(pair.value, "'body'") { body = .text(t) }
            default: break
            }
        }
        guard let url else {
            if !pairs.contains(where: { $0.key == "url" }) { error(node, "an 'http' step needs a 'url'") }
            return nil
        }
        if url.singleExpression == nil, case .text(let first)? = url.parts.first, !first.hasPrefix("http://"), !first.hasPrefix("https://"),
            !(relative && first.hasPrefix("/"))
        {
            let also = relative ? ", or '/' for a path on the backend" : ""
            error(at: url.location, "url '\(url.source)' must start with http:// or https:// (or a variable such as '{{ mock.url }}'\(also))")
        }
        return HTTPRequestStep(method: method, url: url, headers: headers, query: query, body: body, location: location(node))
    }

    /// A `merchant:` step: one of the ``MerchantAction``s, with its parameters checked.
    mutating func merchantStep(nameNode: Node, with: Node?) -> MerchantStep? {
        guard let name = nonEmptyString(nameNode, "'merchant'") else { return nil }
        guard let action = MerchantAction(rawValue: name) else {
            let known = MerchantAction.allCases.map(\.rawValue)
            error(
                nameNode, "unknown merchant action '\(name)'", hint: Suggest.nearest(name, in: known).map { "did you mean '\($0)'?" } ?? "known: " + known.joined(separator: ", "))
            return nil
        }
        let parameters =
            with.map { node -> TemplateValue in
                if node.mapping == nil, !isNull(node) { error(node, "'with' must be a mapping of parameters, found \(describe(node))") }
                return templateValue(node)
            } ?? .literal(.object([:]), location(nameNode))
        checkKeys(of: action.spec, label: "'merchant: \(name)'", with: with, auth: nil, owner: "the merchant's backend")
        return MerchantStep(action: action, parameters: parameters, location: location(nameNode))
    }

    mutating func providerAction(_ kind: ProviderAction.Kind, nameNode: Node, with: Node?, auth: Node?, expectsRefusal: Bool = false) -> ProviderAction? {
        guard let name = nonEmptyString(nameNode, "'\(kind.rawValue)'") else { return nil }
        let here = location(nameNode)
        let parameters =
            with.map { node -> TemplateValue in
                if node.mapping == nil, !isNull(node) { error(node, "'with' must be a mapping of parameters, found \(describe(node))") }
                return templateValue(node)
            } ?? .literal(.object([:]), here)
        let authValue = auth.map { templateValue($0) }
        if kind == .mock, let generic = GenericMockAction(rawValue: name) {
            checkKeys(of: generic.spec, kind: kind, with: with, auth: auth, owner: "the mock host")
            if generic == .fault { checkFault(parameters, at: with.map { location($0) } ?? here) }
            if generic == .clock { checkClock(parameters, at: with.map { location($0) } ?? here) }
            return ProviderAction(kind: kind, name: name, parameters: parameters, auth: authValue, location: here, runsAlone: generic.spec.runsAlone)
        }
        guard let provider else {
            let generic = kind == .mock ? " (the mock host itself answers: " + GenericMockAction.allCases.map(\.rawValue).joined(separator: ", ") + ")" : ""
            if kind == .mock, let near = Suggest.nearest(name, in: GenericMockAction.allCases.map(\.rawValue)) {
                error(nameNode, "unknown mock action '\(name)'\(generic)", hint: "did you mean '\(near)'?")
            } else {
                error(
                    nameNode, "'\(kind.rawValue): \(name)' needs a provider, and this suite names none or an unknown one\(generic)",
                    hint: "add 'provider: <id>' at the top of the suite")
            }
            return nil
        }
        var known = provider.actions[kind] ?? []
        if kind == .mock { known += GenericMockAction.allCases.map(\.rawValue) }
        guard let spec = provider.spec(kind, name) else {
            let what = kind == .call ? "operation" : "\(kind.rawValue) action"
            let hint =
                Suggest.nearest(name, in: known).map { "did you mean '\($0)'?" }
                ?? (known.isEmpty ? "provider '\(provider.id)' has no \(what)s" : "known: " + known.joined(separator: ", "))
            error(nameNode, "unknown \(what) '\(name)' for provider '\(provider.id)'", hint: hint)
            return nil
        }
        checkKeys(of: spec, kind: kind, with: with, auth: auth, owner: "provider '\(provider.id)'", at: here, strict: !expectsRefusal)
        return ProviderAction(kind: kind, name: name, parameters: parameters, auth: authValue, location: here, runsAlone: spec.runsAlone)
    }

    /// Checks a `mock: fault`'s literal arguments (kind names, ranges, combinations) with ``FaultSpec``; templated
    /// values are left to the mock, which checks them once rendered.
    mutating func checkFault(_ parameters: TemplateValue, at location: SourceLocation) {
        var literals: [String: Value] = [:]
        var templated: Set<String> = []
        switch parameters {
        case .literal(.object(let members), _):
            // A mapping without templates is one literal value.
            guard !members.isEmpty else {
                error(at: location, "'mock: fault' needs 'with:' (at least 'kind')", hint: "e.g. with: { provider: mollie, operation: createPayment, kind: status, status: 503 }")
                return
            }
            literals = members
        case .object(let pairs, _):
            for (key, value) in pairs {
                if case .literal(let literal, _) = value { literals[key] = literal } else { templated.insert(key); literals[key] = .null }
            }
        default:
            return
        }
        for problem in FaultSpec.problems(literals, templated: templated) {
            error(at: location, problem, hint: "see 'paycheck mock --help' and README's faults table")
        }
    }

    /// The kind of a literal YAML value; `nil` for a template, whose value is known only when it is rendered.
    static func literalKind(_ node: Node) -> ValueKind? {
        switch node {
        case .mapping: return .object
        case .sequence: return .array
        case .alias: return nil
        case .scalar(let scalar):
            if scalar.string.containsASCII("{{") { return nil }
            if scalar.style == .plain || node.tagName != .str {
                switch node.tagName {
                case .bool: return .boolean
                case .int, .float: return .number
                default: break
                }
            }
            return .string
        }
    }

    /// Checks a `mock: clock`'s arguments as the mock reads them (``ClockAdjustment``): what the mock would refuse is
    /// refused here, before anything runs. Templated values are left to the mock; which keys are given is checked.
    mutating func checkClock(_ parameters: TemplateValue, at location: SourceLocation) {
        var literals: [String: Value] = [:]
        var templated: [String] = []
        switch parameters {
        case .literal(.object(let members), _):
            literals = members
        case .object(let pairs, _):
            for (key, value) in pairs {
                if case .literal(let literal, _) = value { literals[key] = literal } else { templated.append(key) }
            }
        default:
            return
        }
        let hint = "e.g. with: { advance: 31m }, with: { set: \"2026-01-15T10:00:00Z\" } or with: { reset: true }"
        guard templated.isEmpty else {
            let given = Set(templated).union(literals.keys)
            if given.contains("advance"), given.contains("set") {
                error(at: location, "'mock: clock' takes either 'advance' or 'set', not both", hint: hint)
            }
            return
        }
        do throws(ClockAdjustment.Problem) {
            _ = try ClockAdjustment(json: literals)
        } catch {
            self.error(at: location, "'mock: clock': \(error.message)", hint: hint)
        }
    }

    /// Checks the `with:` and `auth:` keys of an action against what it declares, with did-you-mean hints, and the
    /// literal values of the keys it declares a kind for.
    mutating func checkKeys(
        of spec: ActionSpec, kind: ProviderAction.Kind, with: Node?, auth: Node?, owner: String, at location: SourceLocation? = nil, strict: Bool = true
    ) {
        checkKeys(of: spec, label: "'\(kind.rawValue): \(spec.name)'", with: with, auth: auth, owner: owner, at: location, strict: strict)
    }

    /// Whether a step's `expect:` expects the provider to refuse the request (an `error:`, or a status of 400 or more):
    /// such a step may leave out a required member or send a value of another kind on purpose.
    static func expectsRefusal(_ expect: Node?) -> Bool {
        guard let pairs = expect?.mapping else { return false }
        for (key, value) in pairs {
            switch key.scalar?.string {
            case "error"?: return true
            case "status"?: if statusNumbers(value).contains(where: { $0 >= 400 }) { return true }
            default: continue
            }
        }
        return false
    }

    /// The numbers written in a status expectation (a literal, or inside its matchers).
    private static func statusNumbers(_ node: Node) -> [Int] {
        switch node {
        case .scalar(let scalar): Int(scalar.string).map { [$0] } ?? []
        case .mapping(let pairs): pairs.flatMap { statusNumbers($0.value) }
        case .sequence(let items): items.flatMap(statusNumbers)
        case .alias: []
        }
    }

    /// Checks an action's `with:` keys and literal kinds, and its `auth:` overrides, against its spec. With `strict`
    /// off (the step expects the provider to refuse it), a shape's required members, kinds and choices are not checked;
    /// keys it does not name always are.
    mutating func checkKeys(of spec: ActionSpec, label: String, with: Node?, auth: Node?, owner: String, at location: SourceLocation? = nil, strict: Bool = true) {
        // A required key left out of a written mapping (or no `with:` at all) is refused by the run: say so here.
        // A `with:` that is one template (a row's value) is only known at run time.
        if let pairs = with?.mapping {
            for (keyNode, valueNode) in pairs {
                guard let key = keyNode.scalar?.string, let shape = spec.shapes[key] else { continue }
                for problem in shape.problems(in: valueNode, path: key, strict: strict) {
                    error(problem.at, "\(label): \(problem.message)", hint: problem.hint ?? "\(owner) refuses it")
                }
            }
        }
        if !spec.required.isEmpty, with == nil || with?.mapping != nil {
            let given = Set(with?.mapping?.compactMap { $0.key.scalar?.string } ?? [])
            let missing = spec.required.filter { !given.contains($0) }
            if !missing.isEmpty, let place = with.map({ self.location($0) }) ?? location {
                error(at: place, "\(label) needs 'with: { \(missing.joined(separator: ", ")) }'", hint: "\(owner) refuses the step without it")
            }
        }
        if !spec.kinds.isEmpty, let with {
            // Each declared path (`amount`, or `amount.value` inside it), where the step writes a literal.
            for (path, expected) in spec.kinds.sorted(by: { $0.key < $1.key }) {
                var node: Node? = with
                for component in path.split(separator: ".") {
                    node = node?.mapping?.first { $0.key.scalar?.string == String(component) }?.value
                }
                guard let value = node, !isNull(value), let found = Self.literalKind(value), found != expected else { continue }
                error(
                    value, "'\(path)' of \(label) must be \(expected.described), found \(describe(value))",
                    hint: "\(owner) refuses any other value")
            }
        }
        if let accepted = spec.parameters, let pairs = with?.mapping {
            for (keyNode, _) in pairs {
                guard let key = keyNode.scalar?.string, !accepted.contains(key) else { continue }
                let hint =
                    Suggest.nearest(key, in: accepted).map { "did you mean '\($0)'?" }
                    ?? (accepted.isEmpty ? "\(label) takes no parameters" : "accepted: " + accepted.joined(separator: ", "))
                error(keyNode, "unknown parameter '\(key)' for \(label) of \(owner)", hint: hint)
            }
        }
        guard let auth else { return }
        guard !spec.authKeys.isEmpty else {
            error(auth, "\(label) takes no 'auth' overrides", hint: "'auth' applies to requests the adapter signs")
            return
        }
        guard let pairs = auth.mapping else {
            if !isNull(auth) { error(auth, "'auth' must be a mapping of overrides, found \(describe(auth))", hint: "accepted: " + spec.authKeys.joined(separator: ", ")) }
            return
        }
        for (keyNode, _) in pairs {
            guard let key = keyNode.scalar?.string, !spec.authKeys.contains(key) else { continue }
            let hint = Suggest.nearest(key, in: spec.authKeys).map { "did you mean '\($0)'?" } ?? "accepted: " + spec.authKeys.joined(separator: ", ")
            error(keyNode, "unknown auth override '\(key)' for \(label) of \(owner)", hint: hint)
        }
    }
}
