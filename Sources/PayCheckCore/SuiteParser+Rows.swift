import Foundation
import Yams

/// One row of a `rows:` table: the values `{{ row.KEY }}` stands for in a case (or a whole suite) written once.
struct TableRow {
    /// The row's values by key, as YAML nodes: a value used alone keeps its kind (a number, a mapping).
    var values: [String: Node]
    /// Where the row is: the expanded case (or suite) is reported there.
    var location: SourceLocation
}

/// Parameterised cases and suites: `rows:` is a table, and the case (or suite) around it is parsed once per row
/// with each `{{ row.KEY }}` replaced by that row's value before anything else reads it. A reference that is the
/// whole value takes the row's value as it is (a number, a mapping: `with: "{{ row.create }}"`); inside text it is
/// spliced as text. So each row is parsed, linted and reported as the case it stands for.
extension SuiteParser {
    /// The key under which a case or a suite holds its table.
    static let rowsKey = "rows"

    /// The most rows a table may have: far past any real suite, far below runaway fan-out.
    static let maximumRows = 1_000

    /// Parses `rows:`: a non-empty list of mappings that all have the same keys.
    mutating func tableRows(_ node: Node, of what: String, outer: Set<String> = []) -> [TableRow]? {
        guard let sequence = node.sequence else {
            error(node, "'rows' of \(what) must be a list of mappings (one per row), found \(describe(node))")
            return nil
        }
        guard !sequence.isEmpty else {
            error(node, "'rows' of \(what) is empty", hint: "add one mapping per row, e.g. '- { status: 503 }'")
            return nil
        }
        guard sequence.count <= Self.maximumRows else {
            error(node, "'rows' of \(what) has \(sequence.count) rows, more than \(Self.maximumRows)")
            return nil
        }
        var rows: [TableRow] = []
        var firstKeys: [String]?
        for rowNode in sequence {
            guard let pairs = mapping(rowNode, "each row") else { return nil }
            var values: [String: Node] = [:]
            for pair in pairs {
                if !Self.isRowKey(pair.key) {
                    error(pair.keyNode, "'\(pair.key)' cannot be a row key", hint: "row keys are names: letters, digits, '_' and '-', not starting with a digit")
                } else if outer.contains(pair.key) {
                    error(pair.keyNode, "'\(pair.key)' is already a key of the suite's rows", hint: "give the case's row key another name")
                }
                values[pair.key] = pair.value
            }
            let keys = pairs.map(\.key)
            if let firstKeys, Set(keys) != Set(firstKeys) {
                let missing = firstKeys.filter { !keys.contains($0) }, extra = keys.filter { !firstKeys.contains($0) }
                let parts =
                    (missing.isEmpty ? [] : ["no " + missing.map { "'\($0)'" }.joined(separator: ", ")])
                    + (extra.isEmpty ? [] : ["an extra " + extra.map { "'\($0)'" }.joined(separator: ", ")])
                error(
                    rowNode, "this row has " + parts.joined(separator: " and ") + ": every row has the first row's keys",
                    hint: "a table's rows all have the same keys")
                return nil
            }
            firstKeys = firstKeys ?? keys
            rows.append(TableRow(values: values, location: location(rowNode)))
        }
        return rows
    }

    /// `node` without the pair of `key` (a mapping's `rows:`, once its rows are read).
    static func removing(_ key: String, from node: Node) -> Node {
        guard case .mapping(let mapping) = node else { return node }
        let pairs = mapping.filter { $0.key.scalar?.string != key }.map { ($0.key, $0.value) }
        return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
    }

    static func isRowKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// Runs `body` once per row. A diagnostic every row raises (a mistake in the template) is reported once; one
    /// that only some rows raise says which rows.
    mutating func perRow<T>(_ rows: [TableRow], _ body: (inout SuiteParser, TableRow) -> T) -> [T] {
        var results: [T] = []
        var rowsOf: [Diagnostic: [TableRow]] = [:]
        var order: [Diagnostic] = []
        for row in rows {
            let before = diagnostics.count
            results.append(body(&self, row))
            for diagnostic in diagnostics[before...] {
                if rowsOf[diagnostic] == nil { order.append(diagnostic) }
                rowsOf[diagnostic, default: []].append(row)
            }
            diagnostics.removeSubrange(before...)
        }
        for var diagnostic in order {
            let raisedBy = rowsOf[diagnostic] ?? []
            if raisedBy.count < rows.count {
                let lines = raisedBy.map { String($0.location.line) }
                diagnostic.message += raisedBy.count == 1 ? " (in the row at line \(lines[0]))" : " (in the rows at lines \(lines.joined(separator: ", ")))"
            }
            diagnostics.append(diagnostic)
        }
        return results
    }

    /// A copy of `node` with the references to `row`'s keys replaced; references to other keys stay (a case's own
    /// table fills them in, or ``reportRowReferences(in:known:)`` reports them).
    mutating func substituting(_ row: TableRow, in node: Node) -> Node {
        switch node {
        case .scalar(let scalar):
            let references = Self.rowReferences(in: scalar.string).filter { row.values[$0.key] != nil }
            guard !references.isEmpty else { return node }
            if references.count == 1, scalar.string.trimmingWhitespace() == String(scalar.string[references[0].range]) {
                return row.values[references[0].key] ?? node
            }
            var text = ""
            var cursor = scalar.string.startIndex
            for reference in references {
                text += scalar.string[cursor..<reference.range.lowerBound]
                guard case .scalar(let value)? = row.values[reference.key] else {
                    error(
                        node, "row value '\(reference.key)' is \(describe(row.values[reference.key] ?? node)), which cannot go inside text",
                        hint: "use it alone as the whole value: \"{{ row.\(reference.key) }}\"")
                    return node
                }
                text += value.string
                cursor = reference.range.upperBound
            }
            text += scalar.string[cursor...]
            return .scalar(Node.Scalar(text, .implicit, .doubleQuoted, scalar.mark))
        case .mapping(let mapping):
            let pairs = mapping.map { (substituting(row, in: $0.key), substituting(row, in: $0.value)) }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            return .sequence(Node.Sequence(sequence.map { substituting(row, in: $0) }, sequence.tag, sequence.style, sequence.mark))
        case .alias:
            return node
        }
    }

    /// Reports each `{{ row.KEY }}` left in `node`: outside a table, or naming a key no table in scope has.
    mutating func reportRowReferences(in node: Node, known: [String]) {
        switch node {
        case .scalar(let scalar):
            for reference in Self.rowReferences(in: scalar.string) {
                if known.isEmpty {
                    error(
                        node, "'{{ row.\(reference.key) }}' is used outside a table",
                        hint: "row values come from the 'rows:' of the case or of the suite")
                } else {
                    let hint =
                        Suggest.nearest(reference.key, in: known).map { "did you mean 'row.\($0)'?" }
                        ?? "the rows have: " + known.sorted().joined(separator: ", ")
                    error(node, "the rows have no '\(reference.key)'", hint: hint)
                }
            }
        case .mapping(let mapping):
            for (key, value) in mapping {
                reportRowReferences(in: key, known: known)
                reportRowReferences(in: value, known: known)
            }
        case .sequence(let sequence):
            for item in sequence { reportRowReferences(in: item, known: known) }
        case .alias:
            break
        }
    }

    /// Whether any scalar in `node` refers to a row value.
    static func refersToRows(_ node: Node) -> Bool {
        switch node {
        case .scalar(let scalar): !rowReferences(in: scalar.string).isEmpty
        case .mapping(let mapping): mapping.contains { refersToRows($0.key) || refersToRows($0.value) }
        case .sequence(let sequence): sequence.contains(where: refersToRows)
        case .alias: false
        }
    }

    /// The `{{ row.KEY }}` references in `text`, in order.
    static func rowReferences(in text: String) -> [(range: Range<String.Index>, key: String)] {
        guard text.containsASCII("row.") else { return [] }
        var references: [(range: Range<String.Index>, key: String)] = []
        var cursor = text.startIndex
        while let open = text.range(of: "{{", range: cursor..<text.endIndex),
            let close = text.range(of: "}}", range: open.upperBound..<text.endIndex)
        {
            let inner = String(text[open.upperBound..<close.lowerBound]).trimmingWhitespace()
            if inner.hasPrefix("row."), isRowKey(String(inner.dropFirst(4))) {
                references.append((open.lowerBound..<close.upperBound, String(inner.dropFirst(4))))
            }
            cursor = close.upperBound
        }
        return references
    }
}
