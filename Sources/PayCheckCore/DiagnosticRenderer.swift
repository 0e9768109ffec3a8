/// Renders diagnostics as text: the `file:line:column: error: message` line, the source line with a
/// caret under the column, and the hint. Plain for files and reports, ANSI-coloured for a terminal.
package struct DiagnosticRenderer: Sendable {
    /// Whether to use ANSI colours.
    package var colored: Bool
    /// Looks up the text of a file so the offending line can be quoted; `nil` when unavailable.
    var sourceLine: @Sendable (_ file: String, _ line: Int) -> String?

    /// Creates a renderer.
    package init(colored: Bool = false, sourceLine: @escaping @Sendable (String, Int) -> String? = { _, _ in nil }) {
        self.colored = colored
        self.sourceLine = sourceLine
    }

    /// Renders one diagnostic as one or more lines (no trailing newline).
    package func render(_ diagnostic: Diagnostic) -> String {
        let style = ANSIStyle(enabled: colored)
        let label: String
        switch diagnostic.severity {
        case .error: label = style.red("error")
        case .warning: label = style.yellow("warning")
        case .note: label = style.cyan("note")
        }
        var lines: [String] = []
        let prefix = diagnostic.location.map { style.bold("\($0)") + ": " } ?? ""
        lines.append("\(prefix)\(label): \(diagnostic.message)")
        if let location = diagnostic.location, let text = sourceLine(location.file, location.line) {
            let gutter = String(location.line)
            let pad = String(repeating: " ", count: gutter.count)
            lines.append("\(pad) |")
            lines.append("\(gutter) | \(text)")
            let caretOffset = caretColumn(in: text, column: location.column)
            lines.append("\(pad) | " + String(repeating: " ", count: caretOffset) + style.red("^"))
        }
        if let hint = diagnostic.hint {
            lines.append("  " + style.cyan("hint") + ": \(hint)")
        }
        return lines.joined(separator: "\n")
    }

    /// Renders many diagnostics, sorted by location, separated by blank lines.
    package func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case let (l?, r?) where l != r: return l < r
            case (nil, _?): return true
            case (_?, nil): return false
            default: return a.offset < b.offset
            }
        }.map(\.element)
            .map(render).joined(separator: "\n\n")
    }

    private func caretColumn(in text: String, column: Int) -> Int {
        // Tabs keep their width by being echoed; every other scalar counts one column.
        max(0, min(column - 1, text.unicodeScalars.count))
    }
}

/// Minimal ANSI styling that does nothing when disabled.
package struct ANSIStyle: Sendable {
    /// Whether escapes are emitted.
    package var enabled: Bool
    /// Creates a style.
    package init(enabled: Bool) { self.enabled = enabled }
    private func wrap(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    /// Red text.
    package func red(_ s: String) -> String { wrap("31", s) }
    /// Green text.
    package func green(_ s: String) -> String { wrap("32", s) }
    /// Yellow text.
    package func yellow(_ s: String) -> String { wrap("33", s) }
    /// Cyan text.
    func cyan(_ s: String) -> String { wrap("36", s) }
    /// Bold text.
    package func bold(_ s: String) -> String { wrap("1", s) }
    /// Dim text.
    package func dim(_ s: String) -> String { wrap("2", s) }
}
