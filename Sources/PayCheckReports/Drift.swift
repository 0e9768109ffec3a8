import Foundation
package import PayCheckCore
package import PayCheckRunner

/// What `paycheck drift` finds between a recording of a live run and the same suites run on the mock: for every
/// case that ran in both, exchange by exchange, each difference in status code, in the answer's field names and
/// types, and in its values (enum values, error codes, the states a payment moves through) — except where the
/// provider's noise rules (``PayCheckProviders/Provider/driftNoise``) say a value legitimately changes.
package struct DriftReport: Sendable {
    /// One difference.
    package struct Entry: Sendable, Hashable {
        /// Where: the provider, the operation (`POST /v2/payments`, ids as `{id}`) and the field (`status` for the
        /// status code, `body.<path>` in the answer).
        package var provider: String
        package var operation: String
        package var field: String
        /// What differs: `status`, `missing` (only in the recording), `extra` (only on the mock), `type`, `value`.
        package var kind: String
        /// The recorded and the mock's side, as text.
        package var recorded: String
        package var mock: String
        /// The first case it was seen in.
        package var example: String
    }

    /// The differences, by provider, operation and field, each once.
    package var entries: [Entry]
    /// Cases and exchanges compared; cases that ran in only one of the two.
    package var casesCompared: Int
    package var exchangesCompared: Int
    package var notCompared: [String]

    /// Whether anything drifted.
    package var drifted: Bool { !entries.isEmpty }

    /// Compares a recording with a run of the same suites on the mock.
    /// - Parameter noise: a provider's noise rules: field-path globs whose values may differ.
    package static func compare(recorded: [RunRecording.Case], mock: [RunRecording.Case], noise: (String) -> [String]) -> DriftReport {
        let current = Dictionary(mock.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        var entries: [Entry] = []
        var cases = 0, exchanges = 0
        var notCompared: [String] = []
        for record in recorded where record.verdict != .skipped {
            let label = "\(record.file) › \(record.name)"
            guard let other = current[record.key], other.verdict != .skipped else {
                notCompared.append("\(label): did not run on the mock")
                continue
            }
            cases += 1
            let provider = record.provider ?? "-"
            let rules = noise(provider)
            for (before, after) in zip(record.exchanges, other.exchanges) {
                exchanges += 1
                let operation = operationName(before)
                func add(_ field: String, _ kind: String, _ recorded: String, _ mock: String) {
                    // Each place once, with the first case it was seen in.
                    guard seen.insert("\(provider)\u{1F}\(operation)\u{1F}\(field)\u{1F}\(kind)").inserted else { return }
                    entries.append(Entry(provider: provider, operation: operation, field: field, kind: kind, recorded: recorded, mock: mock, example: label))
                }
                if before.status != after.status {
                    add("status", "status", before.status.map(String.init) ?? "no answer", after.status.map(String.init) ?? "no answer")
                }
                guard before.status == after.status, let left = answer(before), let right = answer(after) else { continue }
                let a = ValuePaths.flatten(left), b = ValuePaths.flatten(right)
                for (path, value) in a.sorted(by: { $0.key < $1.key }) {
                    guard let other = b[path] else { add("body.\(path)", "missing", describe(value), "(absent)"); continue }
                    if typeName(value) != typeName(other) {
                        add("body.\(path)", "type", typeName(value), typeName(other))
                    } else if isScalar(value), !sameValue(value, other), !ValuePaths.isNoise(path, rules), !describe(value).contains(Redactor.mask) {
                        add("body.\(path)", "value", describe(value), describe(other))
                    }
                }
                for (path, value) in b.sorted(by: { $0.key < $1.key }) where a[path] == nil {
                    add("body.\(path)", "extra", "(absent)", describe(value))
                }
            }
            if record.exchanges.count != other.exchanges.count {
                notCompared.append("\(label): \(record.exchanges.count) exchange(s) recorded, \(other.exchanges.count) on the mock")
            }
        }
        entries.sort { ($0.provider, $0.operation, $0.field) < ($1.provider, $1.operation, $1.field) }
        return DriftReport(entries: entries, casesCompared: cases, exchangesCompared: exchanges, notCompared: notCompared)
    }

    /// Whether two values are the same: URLs compared without their scheme and host (the mock's are not the API's)
    /// and with their ids as `{id}`, and two UUIDs always (ids under any field name).
    static func sameValue(_ a: Value, _ b: Value) -> Bool {
        guard case .string(let x) = a, case .string(let y) = b else { return a == b }
        if isURL(x), isURL(y) { return normalizedPath(x) == normalizedPath(y) }
        if UUID(uuidString: x) != nil, UUID(uuidString: y) != nil { return true }
        return x == y
    }

    static func isURL(_ text: String) -> Bool { text.hasPrefix("http://") || text.hasPrefix("https://") }

    /// `METHOD /path`, without scheme, host, query or a provider's mock prefix, with id-like segments as `{id}`.
    /// The answer of `exchange` as a value: what the adapter read (MIT's decrypted answer) or the body, as JSON or
    /// XML; `nil` when it is neither.
    static func answer(_ exchange: Exchange) -> Value? {
        let text = exchange.readBody ?? exchange.responseBody
        return JSONText.parse(text) ?? XMLValue.parse(text)
    }

    static func operationName(_ exchange: Exchange) -> String {
        exchange.method + " " + normalizedPath(exchange.url)
    }

    /// A URL's path without scheme, host or query, each id-like segment (a number, a masked value, a long token, a
    /// word with digits) as `{id}`.
    static func normalizedPath(_ url: String) -> String {
        var path = ReplayTransport.path(url)
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        let segments = path.split(separator: "/").map { segment -> String in
            let digits = segment.filter { $0.isNumber }.count
            let looksLikeID = digits == segment.count || segment.contains(Redactor.mask) || (segment.count >= 6 && digits >= 2) || segment.count >= 20
            return looksLikeID ? "{id}" : String(segment)
        }
        return "/" + segments.joined(separator: "/")
    }

    static func typeName(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    static func isScalar(_ value: Value) -> Bool {
        switch value {
        case .array, .object: false
        default: true
        }
    }

    static func describe(_ value: Value) -> String {
        let text = JSONText.encode(value)
        return text.count > 80 ? String(text.prefix(77)) + "…" : text
    }

    /// The report as JSON.
    package var json: Value {
        .object([
            "tool": "paycheck", "kind": "drift", "drifted": .bool(drifted),
            "casesCompared": .int(casesCompared), "exchangesCompared": .int(exchangesCompared),
            "notCompared": .array(notCompared.map(Value.string)),
            "differences": .array(
                entries.map { entry in
                    .object([
                        "provider": .string(entry.provider), "operation": .string(entry.operation), "field": .string(entry.field),
                        "kind": .string(entry.kind), "recorded": .string(entry.recorded), "mock": .string(entry.mock), "example": .string(entry.example),
                    ])
                }),
        ])
    }

    /// The report as a self-contained HTML page: one table of differences by provider and operation.
    package var html: String {
        let rows = entries.map { entry in
            "<tr><td>\(XMLText.html(entry.provider))</td><td><code>\(XMLText.html(entry.operation))</code></td><td><code>\(XMLText.html(entry.field))</code></td><td>\(entry.kind)</td><td><code>\(XMLText.html(entry.recorded))</code></td><td><code>\(XMLText.html(entry.mock))</code></td><td>\(XMLText.html(entry.example))</td></tr>"
        }.joined(separator: "\n")
        let verdict = drifted ? "\(entries.count) difference(s)" : "no drift"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>PayCheck drift — \(verdict)</title>
            <style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}code{font-size:13px}</style></head>
            <body><h1>PayCheck drift — \(verdict)</h1>
            <p>\(casesCompared) case(s) and \(exchangesCompared) exchange(s) compared between the recording and the mock.</p>
            <table><thead><tr><th>provider</th><th>operation</th><th>field</th><th>kind</th><th>recorded</th><th>mock</th><th>first seen in</th></tr></thead>
            <tbody>
            \(rows)
            </tbody></table>
            \(notCompared.isEmpty ? "" : "<h2>Not compared</h2><ul>" + notCompared.map { "<li>\(XMLText.html($0))</li>" }.joined() + "</ul>")
            </body></html>

            """
    }
}
