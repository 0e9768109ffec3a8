/// A 1-based position in a suite file, taken from the YAML node it came from.
package struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path of the file as the user named it.
    package var file: String
    /// The line, starting at 1.
    package var line: Int
    /// The column, starting at 1 (counted in Unicode scalars, as libYAML does).
    package var column: Int

    /// Creates a location.
    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and CI annotations understand.
    package var description: String { "\(file):\(line):\(column)" }

    /// Orders locations by file, then line, then column.
    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
