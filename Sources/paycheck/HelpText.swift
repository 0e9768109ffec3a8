import Foundation

/// Help text written in source at any width, reflowed so argument-parser wraps it once at the terminal's width.
enum HelpText {
    /// `text` with the line breaks inside each paragraph turned into spaces. A blank line still separates paragraphs,
    /// and a line that starts with a space, `-`, `•` or `$` (an example, a list item) keeps its own line.
    static func reflow(_ text: String) -> String {
        var out = ""
        var previousBlank = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let isBlank = line.allSatisfy(\.isWhitespace)
            let keepsLine = line.first.map { $0 == " " || $0 == "-" || $0 == "•" || $0 == "$" } ?? false
            if isBlank {
                out += "\n\n"
            } else if previousBlank || keepsLine {
                if !out.isEmpty, !out.hasSuffix("\n") { out += "\n" }
                out += line
            } else {
                out += " " + line
            }
            previousBlank = isBlank
        }
        while out.contains("\n\n\n") { out = out.replacingOccurrences(of: "\n\n\n", with: "\n\n") }
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
