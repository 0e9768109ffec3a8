package import Foundation

/// Evaluates templates against variables, with the clock, randomness and environment injected.
package struct TemplateRenderer: Sendable {
    /// The variables in scope: suite vars, profile, `--var`, captures (later ones win).
    package var variables: [String: Value]
    /// The environment visible to `env()`.
    package var environment: [String: String]
    /// The current time for `now()`.
    package var now: @Sendable () -> Date
    /// A source of random 64-bit numbers for `uuid()` and `random()`.
    package var random: @Sendable () -> UInt64

    /// Creates a renderer.
    package init(
        variables: [String: Value] = [:], environment: [String: String] = [:],
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> UInt64 = { UInt64.random(in: .min ... .max) }
    ) {
        self.variables = variables
        self.environment = environment
        self.now = now
        self.random = random
    }

    /// A problem while rendering, located at the template.
    package struct RenderError: Error, Sendable {
        /// Where the template is written.
        package var location: SourceLocation
        /// What went wrong.
        package var message: String
        /// An optional suggestion.
        package var hint: String?

        /// Creates an error.
        package init(location: SourceLocation, message: String, hint: String? = nil) {
            self.location = location
            self.message = message
            self.hint = hint
        }
    }

    /// Renders a template to a value: a single `{{ expr }}` keeps its type, anything else is a string.
    package func render(_ template: Template) throws(RenderError) -> Value {
        if let single = template.singleExpression {
            let value = try evaluate(single, at: template.location)
            // A variable can hold more than a template may render to (a value built by `set:` from others).
            if case .string(let text) = value, text.utf8.count > Self.maximumRenderedBytes { throw self.tooLarge(template) }
            return value
        }
        var out = ""
        for part in template.parts {
            switch part {
            case .text(let text): out += text
            case .expression(let e, _): out += try evaluate(e, at: template.location).interpolated
            }
            guard out.utf8.count <= Self.maximumRenderedBytes else { throw self.tooLarge(template) }
        }
        return .string(out)
    }

    /// The error of a template that renders past ``maximumRenderedBytes``: the step is invalid as written (exit 2).
    private func tooLarge(_ template: Template) -> RenderError {
        RenderError(
            location: template.location,
            message: "'\(template.source.prefix(80))' renders to more than \(Self.maximumRenderedBytes / (1 << 20)) MiB",
            hint: "a variable that repeats another grows fast; check the suite's vars")
    }

    /// The largest text one template may render to: far past any real request, far below memory trouble.
    static let maximumRenderedBytes = 1 << 20

    /// Renders a template to text.
    package func renderString(_ template: Template) throws(RenderError) -> String {
        try render(template).interpolated
    }

    /// Renders every template inside a value.
    package func render(_ value: TemplateValue) throws(RenderError) -> Value {
        switch value {
        case .literal(let v, _): return v
        case .string(let t): return try render(t)
        case .array(let items, _):
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(try render(item)) }
            return .array(out)
        case .object(let members, _):
            var out: [String: Value] = [:]
            for member in members { out[member.key] = try render(member.value) }
            return .object(out)
        }
    }

    /// Evaluates one expression.
    package func evaluate(_ expression: Expression, at location: SourceLocation) throws(RenderError) -> Value {
        switch expression {
        case .string(let s): return .string(s)
        case .number(let n): return Value(number: n)
        case .variable(let name, let path):
            guard let value = variables[name] else {
                let hint =
                    Suggest.nearest(name, in: Array(variables.keys)).map { "did you mean '\($0)'?" }
                    ?? "define it in 'vars:', with '--var \(name)=…', or capture it in an earlier step"
                throw RenderError(location: location, message: "undefined variable '\(name)'", hint: hint)
            }
            guard let path else { return value }
            guard let found = path.lookup(in: value) else {
                throw RenderError(location: location, message: "variable '\(name)' has no '\(path)' (its value is \(value.brief))")
            }
            return found
        case .call(let function, let args):
            var values: [Value] = []
            for arg in args { values.append(try evaluate(arg, at: location)) }
            return try call(function, values, at: location)
        }
    }

    private func call(_ function: Expression.Function, _ args: [Value], at location: SourceLocation) throws(RenderError) -> Value {
        switch function {
        case .uuid:
            var bytes: [UInt8] = []
            for _ in 0..<2 { withUnsafeBytes(of: random()) { bytes += $0 } }
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            let i = Array(hex)
            return .string("\(String(i[0..<8]))-\(String(i[8..<12]))-\(String(i[12..<16]))-\(String(i[16..<20]))-\(String(i[20..<32]))")
        case .random:
            guard let digits = args.first?.number, digits >= 1, digits <= 64 else {
                throw RenderError(location: location, message: "random() takes a number of digits from 1 to 64, got \(args.first?.brief ?? "nothing")")
            }
            var out = ""
            for _ in 0..<Int(digits) { out += String(random() % 10) }
            return .string(out)
        case .env:
            let name = args.first?.interpolated ?? ""
            return .string(environment[name] ?? "")
        case .number:
            guard let number = args.first?.numberValue else {
                throw RenderError(location: location, message: "number() takes a number or a text of one such as \"10.50\", got \(args.first?.brief ?? "nothing")")
            }
            return Value(number: number)
        case .now:
            var date = now()
            if let offset = args.first?.interpolated, !offset.isEmpty {
                do throws(DurationError) {
                    date = date.addingTimeInterval(try DurationText.parse(offset))
                } catch  where error.problem == .outOfBounds {
                    throw RenderError(location: location, message: "now() offset \(error.message)")
                } catch {
                    throw RenderError(location: location, message: "now() offset '\(offset)' is not a duration like '+5m' or '-1h'")
                }
            }
            let format = args.count > 1 ? args[1].interpolated : "iso8601"
            guard let text = TemplateRenderer.format(date, format) else {
                throw RenderError(location: location, message: "now() date \(date.timeIntervalSince1970) s since 1970 cannot be written as '\(format)'")
            }
            return .string(text)
        }
    }

    /// Formats a date: `iso8601` (UTC, `Z`, whole seconds), `unix`, `unixms`, or a `DateFormatter` pattern in
    /// UTC; `nil` when the date is too far out for an integer form.
    static func format(_ date: Date, _ format: String) -> String? {
        switch format {
        case "iso8601", "":
            return ISOTimestamp.format(date, fraction: .never)
        case "unix":
            return Int64(exactly: date.timeIntervalSince1970.rounded(.towardZero)).map { String($0) }
        case "unixms":
            return Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded(.towardZero)).map { String($0) }
        default:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            return formatter.string(from: date)
        }
    }
}
