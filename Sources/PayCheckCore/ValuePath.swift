import Foundation

/// A path into a value: `a.b[0].c`, `$.a`, `$` (the whole value), `items[-1]` (from the end), or
/// `headers."x-key".value` for keys with dots. A small JSONPath subset.
package struct ValuePath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    package enum Component: Sendable, Hashable {
        /// An object key.
        case key(String)
        /// An array index; negative counts from the end.
        case index(Int)
    }

    /// The steps, in order.
    package var components: [Component]
    /// The text the path was parsed from.
    package var description: String

    /// Parses a path; throws a message (without location) when it is malformed.
    package init(parsing text: String) throws(PathError) {
        description = text
        components = try ValuePath.parse(text)
    }

    /// A path error message.
    package struct PathError: Error, Sendable, Equatable {
        /// What is wrong, quoting the path.
        package var message: String
    }

    /// Looks the path up in a value; `nil` when any step is missing.
    package func lookup(in value: Value) -> Value? {
        var current = value
        for component in components {
            switch (component, current) {
            case let (.key(key), .object(members)):
                guard let next = members[key] else { return nil }
                current = next
            case let (.index(i), .array(items)):
                let index = i < 0 ? items.count + i : i
                guard items.indices.contains(index) else { return nil }
                current = items[index]
            case let (.key(key), .array(items)) where key == "length":
                current = .int(items.count)
            default:
                return nil
            }
        }
        return current
    }

    private static func parse(_ text: String) throws(PathError) -> [Component] {
        var chars = Array(text.trimmingCharacters(in: .whitespaces))
        if chars.first == "$" { chars.removeFirst(); if chars.first == "." { chars.removeFirst() } }
        var components: [Component] = []
        var i = 0
        var expectKey = true
        func fail(_ why: String) -> PathError { PathError(message: "invalid path '\(text)': \(why)") }
        while i < chars.count {
            let c = chars[i]
            if c == "[" {
                guard let close = chars[i...].firstIndex(of: "]") else { throw fail("missing ']'") }
                let inner = String(chars[(i + 1)..<close]).trimmingCharacters(in: .whitespaces)
                if let n = Int(inner) {
                    components.append(.index(n))
                } else if inner.count >= 2, let q = inner.first, q == "'" || q == "\"", inner.last == q {
                    components.append(.key(String(inner.dropFirst().dropLast())))
                } else {
                    throw fail("'[\(inner)]' is neither an index nor a quoted key")
                }
                i = close + 1
                expectKey = false
            } else if c == "." {
                if expectKey { throw fail("empty key before '.'") }
                i += 1
                expectKey = true
                if i == chars.count { throw fail("it ends with '.'") }
            } else if c == "\"" || c == "'" {
                guard let close = chars[(i + 1)...].firstIndex(of: c) else { throw fail("unterminated quote") }
                components.append(.key(String(chars[(i + 1)..<close])))
                i = close + 1
                expectKey = false
            } else {
                if !expectKey { throw fail("expected '.' or '[' before '\(c)'") }
                var j = i
                while j < chars.count, chars[j] != ".", chars[j] != "[" { j += 1 }
                components.append(.key(String(chars[i..<j])))
                i = j
                expectKey = false
            }
        }
        return components
    }
}
