import Foundation
import Yams

/// Turns one file's YAML nodes into the suite AST. Every problem becomes a diagnostic; parsing goes on
/// after an error so that one run reports all of them. Yams nodes never leave this type.
struct SuiteParser {
    enum Outcome {
        /// One suite, or one per row of the suite's `rows:`.
        case suites([Suite])
        case fragment
        case invalid
    }

    let file: String
    let text: String
    let catalog: any ProviderCatalog
    let loader: SuiteLoader
    var diagnostics: [Diagnostic] = []
    var includedSources: [String: String] = [:]
    var includeStack: [String] = []
    /// The expanded steps of each included file, shared by every parser of one suite: a file included many
    /// times is read and parsed once.
    var includeCache = IncludeCache()
    var provider: ProviderDescription?

    init(file: String, text: String, catalog: any ProviderCatalog, loader: SuiteLoader) {
        self.file = file
        self.text = text
        self.catalog = catalog
        self.loader = loader
        self.includeStack = [SuiteParser.canonical(file)]
    }

    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    // MARK: Diagnostics and node helpers

    func location(_ node: Node) -> SourceLocation {
        SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    mutating func error(_ node: Node, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(at: location(node), message, hint: hint))
    }

    mutating func error(at location: SourceLocation, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(at: location, message, hint: hint))
    }

    /// Composes the YAML text, turning Yams errors into located diagnostics.
    mutating func compose() -> Node? {
        do {
            // Without explicit tags (`!!str`, `!custom`), plain scalars get their implicit tag from YAMLImplicitTag,
            // which decides it as Yams' default resolver does without its regular expressions; with one, Yams decides.
            let explicit = text.utf8.contains(UInt8(ascii: "!"))
            // The constructor and the encoding are given: Yams' defaults build a constructor and read the process
            // environment on every parse (6% of `lint`, docs/benchmarks.md). UTF-8 is what `.default` gives unless
            // YAMS_DEFAULT_ENCODING says otherwise.
            guard let node = try Yams.compose(yaml: text, explicit ? .default : .basic, YAMLImplicitTag.constructor, .utf8) else {
                error(at: SourceLocation(file: file, line: 1, column: 1), "the file is empty", hint: "a suite starts with 'suite: <name>'")
                return nil
            }
            var seen = Set<Int>()
            guard rejectAliases(node, seen: &seen) else { return nil }
            return explicit ? node : Self.implicitlyTagged(node)
        } catch let yamlError as YamlError {
            diagnostics.append(SuiteParser.diagnostic(for: yamlError, file: file))
            return nil
        } catch {
            self.error(at: SourceLocation(file: file, line: 1, column: 1), "cannot parse YAML: \(error)")
            return nil
        }
    }

    /// `node` with each plain scalar tagged as Yams' default resolver would tag it (``YAMLImplicitTag``). Run after
    /// ``rejectAliases(_:seen:reportAt:)``, so the tree it copies has no alias left to expand.
    static func implicitlyTagged(_ node: Node) -> Node {
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain else { return node }
            return .scalar(Node.Scalar(scalar.string, YAMLImplicitTag.tag(of: scalar.string), scalar.style, scalar.mark))
        case .mapping(let mapping):
            return .mapping(Node.Mapping(mapping.map { (implicitlyTagged($0.key), implicitlyTagged($0.value)) }, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            return .sequence(Node.Sequence(sequence.map(implicitlyTagged), sequence.tag, sequence.style, sequence.mark))
        case .alias:
            return node
        }
    }

    /// Yams resolves `*alias` to the anchored node itself, so a node met twice is an alias. Aliases are
    /// refused: they hide structure, and nested ones expand exponentially ("billion laughs").
    mutating func rejectAliases(_ node: Node, seen: inout Set<Int>, reportAt parent: Node? = nil) -> Bool {
        guard let mark = node.mark else { return true }
        // A block mapping starts where its first key does, so the node kind is part of the identity.
        let kind =
            switch node {
            case .scalar: 0
            case .mapping: 1
            case .sequence: 2
            case .alias: 3
            }
        let key = (mark.line &* 1_000_003 &+ mark.column) &* 4 &+ kind
        guard seen.insert(key).inserted else {
            error(parent ?? node, "YAML aliases are not supported in suites", hint: "write the value out, or use 'include:' for shared steps")
            return false
        }
        switch node {
        case .mapping(let mapping):
            for (k, v) in mapping {
                guard rejectAliases(k, seen: &seen), rejectAliases(v, seen: &seen, reportAt: k) else { return false }
            }
        case .sequence(let sequence):
            for item in sequence where !rejectAliases(item, seen: &seen, reportAt: node) { return false }
        default:
            break
        }
        return true
    }

    static func diagnostic(for error: YamlError, file: String) -> Diagnostic {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let contextText = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return Diagnostic(at: at(mark), "invalid YAML: \(problem)\(contextText)")
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return Diagnostic(at: at(context.mark), "duplicate key \(keys) in a mapping", hint: "each key may appear once")
        case let .reader(problem, _, _, _):
            return Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "cannot read the file as UTF-8 text: \(problem)")
        default:
            return Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "invalid YAML: \(error)")
        }
    }

    /// The pairs of a mapping node with string keys; reports non-mappings and non-string keys.
    mutating func mapping(_ node: Node, _ what: String) -> [(key: String, keyNode: Node, value: Node)]? {
        if case .alias = node {
            error(node, "YAML aliases are not supported in suites", hint: "write the value out, or use 'include:' for shared steps")
            return nil
        }
        guard let mapping = node.mapping else {
            error(node, "\(what) must be a mapping, found \(describe(node))")
            return nil
        }
        var pairs: [(String, Node, Node)] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                error(key, "keys of \(what) must be plain text, found \(describe(key))")
                continue
            }
            if case .alias = value {
                error(value, "YAML aliases are not supported in suites", hint: "write the value out, or use 'include:' for shared steps")
                continue
            }
            pairs.append((name, key, value))
        }
        return pairs
    }

    /// Reports keys not in `allowed`, with a did-you-mean suggestion.
    mutating func checkKeys(_ pairs: [(key: String, keyNode: Node, value: Node)], allowed: [String], in what: String) {
        for pair in pairs where !allowed.contains(pair.key) {
            let hint =
                Suggest.nearest(pair.key, in: allowed).map { "did you mean '\($0)'?" }
                ?? "allowed keys: " + allowed.joined(separator: ", ")
            error(pair.keyNode, "unknown key '\(pair.key)' in \(what)", hint: hint)
        }
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            if s.string.isEmpty && s.style == .plain { return "nothing" }
            return "'\(s.string.count > 60 ? String(s.string.prefix(57)) + "…" : s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    func isNull(_ node: Node) -> Bool {
        guard case .scalar(let s) = node else { return false }
        return node.tagName == .null || (s.style == .plain && s.string.isEmpty)
    }

    /// A plain string (not a list or mapping); numbers and booleans are taken as their text.
    mutating func string(_ node: Node, _ what: String) -> String? {
        guard case .scalar(let s) = node, !isNull(node) else {
            error(node, "\(what) must be text, found \(describe(node))")
            return nil
        }
        return s.string
    }

    mutating func nonEmptyString(_ node: Node, _ what: String) -> String? {
        guard let s = string(node, what) else { return nil }
        if s.trimmingWhitespace().isEmpty {
            error(node, "\(what) must not be empty")
            return nil
        }
        return s
    }

    /// A list of strings; a single string is accepted as a one-element list.
    mutating func stringList(_ node: Node, _ what: String) -> [String] {
        if case .scalar = node, let s = string(node, what) { return [s] }
        guard let sequence = node.sequence else {
            error(node, "\(what) must be a list of text, found \(describe(node))")
            return []
        }
        return sequence.compactMap { string($0, "each entry of \(what)") }
    }

    /// A duration (`500ms`, `2s`, `1m`, or seconds), positive.
    mutating func duration(_ node: Node, _ what: String) -> Double? {
        guard let text = string(node, what) else { return nil }
        do throws(DurationError) {
            let seconds = try DurationText.parse(text)
            guard seconds >= 0 else {
                error(node, "\(what) must be a duration like '500ms', '2s' or '1m', found '\(text)'")
                return nil
            }
            return seconds
        } catch  where error.problem == .outOfBounds {
            self.error(node, "\(what) must be at most 3650d (10 years), found '\(text)'")
            return nil
        } catch {
            self.error(node, "\(what) must be a duration like '500ms', '2s' or '1m', found '\(text)'")
            return nil
        }
    }

    /// A template string.
    mutating func template(_ node: Node, _ what: String) -> Template? {
        guard let text = string(node, what) else { return nil }
        return template(text, at: location(node))
    }

    mutating func template(_ text: String, at location: SourceLocation) -> Template? {
        guard text.utf8.count <= TemplateRenderer.maximumRenderedBytes else {
            error(at: location, Self.oversized(text), hint: Self.oversizedHint)
            return nil
        }
        do {
            return try Template.parse(text, at: location)
        } catch {
            self.error(at: location, error.message, hint: error.hint)
            return nil
        }
    }

    /// The error of a value longer than a template may render to: run would refuse it (exit 2), so lint does.
    static func oversized(_ text: String) -> String {
        "a value of \(text.utf8.count / 1024) KiB is more than the \(TemplateRenderer.maximumRenderedBytes >> 20) MiB a value may be"
    }

    /// The hint of ``oversized(_:)``.
    static let oversizedHint = "keep large bodies out of suites; a request body of that size is no conformance check"

    /// Any YAML value, with templates inside strings.
    mutating func templateValue(_ node: Node) -> TemplateValue {
        let here = location(node)
        switch node {
        case .scalar(let s):
            // What run would refuse once rendered (TemplateRenderer.maximumRenderedBytes), lint refuses as written.
            if s.string.utf8.count > TemplateRenderer.maximumRenderedBytes {
                error(node, Self.oversized(s.string), hint: Self.oversizedHint)
                return .literal(.null, here)
            }
            if s.style == .plain || node.tagName != .str {
                switch node.tagName {
                case .null: return .literal(.null, here)
                case .bool: if let b = node.bool { return .literal(.bool(b), here) }
                case .int: if let i = node.int { return .literal(.int(i), here) }
                case .float: if let d = node.float { return .literal(.double(d), here) }
                default: break
                }
            }
            guard s.string.containsASCII("{{") else { return .literal(.string(s.string), here) }
            if let t = template(s.string, at: here) { return .string(t) }
            return .literal(.string(s.string), here)
        case .sequence(let sequence):
            let items = sequence.map { templateValue($0) }
            if items.allSatisfy(\.isLiteral) {
                return .literal(.array(items.map { if case .literal(let v, _) = $0 { v } else { .null } }), here)
            }
            return .array(items, here)
        case .mapping:
            guard let pairs = mapping(node, "a value") else { return .literal(.null, here) }
            let members = pairs.map { (key: $0.key, value: templateValue($0.value)) }
            if members.allSatisfy(\.value.isLiteral) {
                var object: [String: Value] = [:]
                for m in members { if case .literal(let v, _) = m.value { object[m.key] = v } }
                return .literal(.object(object), here)
            }
            return .object(members, here)
        case .alias:
            error(node, "YAML aliases are not supported in suites")
            return .literal(.null, here)
        }
    }

    /// `vars:` — a mapping of names to values.
    mutating func bindings(_ node: Node, _ what: String) -> [Binding] {
        guard let pairs = mapping(node, what) else { return [] }
        var result: [Binding] = []
        for pair in pairs {
            guard SuiteParser.isIdentifier(pair.key) else {
                error(pair.keyNode, "variable name '\(pair.key)' is not valid", hint: "use letters, digits, '_' and '-', starting with a letter or '_'")
                continue
            }
            result.append(Binding(name: pair.key, value: templateValue(pair.value), location: location(pair.keyNode)))
        }
        return result
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.first, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }
}

extension Node {
    /// The resolved tag name (plain scalars resolve to int, float, bool, null or str).
    var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }
}
