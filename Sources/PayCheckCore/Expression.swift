/// An expression inside `{{ }}`: a variable path, a literal, or a function call.
package indirect enum Expression: Sendable {
    /// A variable, optionally with a path into it: `reference`, `session.body.requestId`, `items[0]`.
    case variable(name: String, path: ValuePath?)
    /// A quoted string literal.
    case string(String)
    /// A number literal.
    case number(Double)
    /// A function call such as `uuid()` or `now('+5m', 'iso8601')`.
    case call(Function, [Expression])

    /// The functions templates can call, with their arities.
    package enum Function: String, Sendable, CaseIterable {
        /// `uuid()` — a random lower-case UUID.
        case uuid
        /// `now(offset?, format?)` — the current time (of the runner's clock) shifted by an offset like `+5m`.
        case now
        /// `random(digits)` — a string of random decimal digits.
        case random
        /// `env(NAME)` — an environment variable (empty when unset).
        case env
        /// `number(text)` — a number written as text (`"10.50"` → `10.5`), so an expectation derived from a string
        /// variable compares with the number an answer holds.
        case number

        /// The accepted number of arguments.
        var arity: ClosedRange<Int> {
            switch self {
            case .uuid: 0...0
            case .now: 0...2
            case .random: 1...1
            case .env: 1...1
            case .number: 1...1
            }
        }
    }

    /// Parses the text between `{{` and `}}`.
    package static func parse(_ text: String) throws(ExpressionError) -> Expression {
        var parser = ExpressionParser(text: text)
        let expression = try parser.parseExpression()
        parser.skipSpaces()
        guard parser.atEnd else {
            throw parser.error("unexpected '\(parser.remaining)' in '{{ \(text.trimmingWhitespace()) }}'")
        }
        return expression
    }

    /// The variable names this expression reads.
    var variableNames: [String] {
        switch self {
        case .variable(let name, _): [name]
        case .call(_, let args): args.flatMap(\.variableNames)
        default: []
        }
    }
}

/// A template or expression syntax error (the loader adds the location).
package struct ExpressionError: Error, Sendable, Equatable {
    /// What is wrong.
    package var message: String
    /// The character offset in the expression text, if known.
    package var offset: Int?
    /// An optional suggestion.
    package var hint: String?

    /// Creates an error.
    package init(message: String, offset: Int? = nil, hint: String? = nil) {
        self.message = message
        self.offset = offset
        self.hint = hint
    }
}

private struct ExpressionParser {
    let chars: [Character]
    let text: String
    var index = 0
    /// How deep the current call nesting is.
    var depth = 0
    /// The deepest nesting of calls accepted: well past any real use, far below the stack's limit.
    static let maximumDepth = 16

    init(text: String) {
        self.text = text
        self.chars = Array(text)
    }

    var atEnd: Bool { index >= chars.count }
    var remaining: String { String(chars[min(index, chars.count)...]) }

    func error(_ message: String, hint: String? = nil) -> ExpressionError {
        ExpressionError(message: message, offset: index, hint: hint)
    }

    mutating func skipSpaces() {
        while index < chars.count, chars[index].isWhitespace { index += 1 }
    }

    mutating func parseExpression() throws(ExpressionError) -> Expression {
        skipSpaces()
        guard index < chars.count else { throw error("empty expression '{{ }}'") }
        let c = chars[index]
        if c == "'" || c == "\"" { return .string(try parseQuoted(c)) }
        if c.isNumber || c == "-" || c == "+" {
            let start = index
            index += 1
            while index < chars.count, chars[index].isNumber || chars[index] == "." { index += 1 }
            let literal = String(chars[start..<index])
            guard let number = Double(literal) else { throw error("invalid number '\(literal)'") }
            return .number(number)
        }
        guard c.isLetter || c == "_" else { throw error("unexpected '\(c)' in '{{ \(text.trimmingWhitespace()) }}'") }
        let start = index
        while index < chars.count, chars[index].isLetter || chars[index].isNumber || chars[index] == "_" || chars[index] == "-" {
            index += 1
        }
        let name = String(chars[start..<index])
        skipSpaces()
        if index < chars.count, chars[index] == "(" {
            index += 1
            guard let function = Expression.Function(rawValue: name) else {
                let names = Expression.Function.allCases.map(\.rawValue)
                throw error(
                    "unknown function '\(name)()'",
                    hint: Suggest.nearest(name, in: names).map { "did you mean '\($0)()'?" }
                        ?? "functions: " + names.map { "\($0)()" }.joined(separator: ", "))
            }
            var args: [Expression] = []
            skipSpaces()
            if index < chars.count, chars[index] == ")" {
                index += 1
            } else {
                depth += 1
                defer { depth -= 1 }
                guard depth <= Self.maximumDepth else {
                    throw error("function calls are nested more than \(Self.maximumDepth) deep in a template")
                }
                while true {
                    args.append(try parseExpression())
                    skipSpaces()
                    guard index < chars.count else { throw error("missing ')' after arguments of '\(name)('") }
                    if chars[index] == "," { index += 1; continue }
                    if chars[index] == ")" { index += 1; break }
                    throw error("expected ',' or ')' in call of '\(name)', found '\(chars[index])'")
                }
            }
            guard function.arity.contains(args.count) else {
                let range = function.arity
                let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw error("'\(name)()' takes \(expected) argument\(range.upperBound == 1 ? "" : "s"), got \(args.count)")
            }
            // A literal now() offset is checked here, so a bad or absurd one is a located lint error.
            if function == .now, case .string(let offset)? = args.first, !offset.isEmpty {
                do throws(DurationError) {
                    _ = try DurationText.parse(offset)
                } catch  where error.problem == .outOfBounds {
                    throw self.error("now() offset \(error.message)")
                } catch {
                    throw self.error("now() offset '\(offset)' is not a duration like '+5m' or '-1h'")
                }
            }
            // So is a literal random() width (the renderer refuses it too, for a width that comes from a variable).
            if function == .random, case .number(let digits)? = args.first, !(1...64).contains(digits) || digits.rounded() != digits {
                throw self.error("random() takes a number of digits from 1 to 64, got \(Value.format(digits))")
            }
            return .call(function, args)
        }
        // A path continues with '.', '[' after the name.
        let pathStart = index
        while index < chars.count, !chars[index].isWhitespace, chars[index] != "," && chars[index] != ")" { index += 1 }
        let pathText = String(chars[pathStart..<index])
        if pathText.isEmpty { return .variable(name: name, path: nil) }
        let trimmed = pathText.hasPrefix(".") ? String(pathText.dropFirst()) : pathText
        do {
            return .variable(name: name, path: try ValuePath(parsing: trimmed))
        } catch {
            throw self.error("invalid path '\(name)\(pathText)': \(error.message)")
        }
    }

    mutating func parseQuoted(_ quote: Character) throws(ExpressionError) -> String {
        index += 1
        var out = ""
        while index < chars.count {
            let c = chars[index]
            if c == "\\", index + 1 < chars.count { out.append(chars[index + 1]); index += 2; continue }
            if c == quote { index += 1; return out }
            out.append(c)
            index += 1
        }
        throw error("unterminated string literal in '{{ \(text.trimmingWhitespace()) }}'")
    }
}
