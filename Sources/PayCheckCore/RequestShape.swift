/// The shape of a value an operation's `with:` parameter takes, from the provider's docs or OpenAPI file: lint checks a
/// step's `with:` against it (with did-you-mean at any depth), the run checks the rendered value's members before
/// sending, and `paycheck explain` prints it.
package indirect enum RequestShape: Sendable, Hashable {
    /// Text.
    case text
    /// A number.
    case number
    /// `true` or `false`.
    case boolean
    /// Text, one of these.
    case oneOf([String])
    /// A mapping with these members; a key it does not name is refused (a typo).
    case object([Member])
    /// A mapping whose members the provider leaves free (`metadata`).
    case openObject
    /// A list of values of this shape.
    case list(RequestShape)
    /// Anything (the provider documents no shape).
    case any

    /// One member of an object.
    package struct Member: Sendable, Hashable {
        /// The key.
        package var name: String
        /// Its value's shape.
        package var shape: RequestShape
        /// Whether the provider refuses the object without it.
        package var required: Bool

        /// A member the provider requires.
        package static func required(_ name: String, _ shape: RequestShape) -> Member { Member(name: name, shape: shape, required: true) }

        /// A member the provider accepts.
        package static func optional(_ name: String, _ shape: RequestShape) -> Member { Member(name: name, shape: shape, required: false) }
    }

    /// The kind of value the shape takes, when it names one.
    package var kind: ValueKind? {
        switch self {
        case .text, .oneOf: .string
        case .number: .number
        case .boolean: .boolean
        case .object, .openObject: .object
        case .list: .array
        case .any: nil
        }
    }

    /// The shape in a few words: `text`, `one of: a, b`, `a mapping`, `a list of a mapping`.
    package var described: String {
        switch self {
        case .text: "text"
        case .number: "a number"
        case .boolean: "true or false"
        case .oneOf(let choices): "one of: " + choices.joined(separator: ", ")
        case .object, .openObject: "a mapping"
        case .list(let element): "a list of " + element.described
        case .any: "any value"
        }
    }

    /// One shape that takes what either takes, for a key two providers declare differently: the members of two
    /// objects together (a member both have, merged), a list of the merged elements, else any value.
    package func merged(with other: RequestShape) -> RequestShape {
        switch (self, other) {
        case _ where self == other: return self
        case (.object(let mine), .object(let theirs)):
            var members = mine
            for member in theirs {
                if let index = members.firstIndex(where: { $0.name == member.name }) {
                    members[index].shape = members[index].shape.merged(with: member.shape)
                    members[index].required = members[index].required && member.required
                } else {
                    members.append(RequestShape.Member(name: member.name, shape: member.shape, required: false))
                }
            }
            return .object(members)
        case (.list(let mine), .list(let theirs)): return .list(mine.merged(with: theirs))
        default: return .any
        }
    }

    /// The editor schema of the shape: the members of every object, any other key refused (a typo), and a template
    /// allowed anywhere. Kinds and choices are left to lint, which lets a step that expects a refusal send others.
    var editorSchema: Value {
        let template: Value = .object(["type": "string", "pattern": "\\{\\{"])
        switch self {
        case .object(let members):
            let properties = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0.shape.editorSchema) })
            let object: Value = .object(["type": "object", "properties": .object(properties), "additionalProperties": false])
            return .object(["anyOf": .array([object, template, .object(["type": "null"])])])
        case .list(let element):
            return .object(["anyOf": .array([.object(["type": "array", "items": element.editorSchema]), template, .object(["type": "null"])])])
        case .text, .number, .boolean, .oneOf, .openObject, .any:
            return .object([:])
        }
    }

    /// The shape as lines of `name: shape (required)`, members indented under their object, for `paycheck explain`.
    package func outline(indent: String = "") -> [String] {
        switch self {
        case .object(let members):
            return members.flatMap { member -> [String] in
                let head = "\(indent)\(member.name): \(member.shape.described)\(member.required ? " (required)" : "")"
                return [head] + member.shape.members.outline(indent: indent + "  ")
            }
        case .list(let element):
            return element.outline(indent: indent)
        default:
            return []
        }
    }

    /// The object shape inside this one (itself, or a list's elements), for outlines.
    private var members: RequestShape {
        switch self {
        case .object: self
        case .list(let element): element.members
        default: .any
        }
    }

    /// What is wrong with `subject` against this shape, where it can be known before the run: keys the shape does not
    /// name (always), and, when `strict`, missing required members, values of another kind and text outside `oneOf`
    /// (a step that expects the provider to refuse it may send those on purpose). `path` names the value in messages.
    package func problems<Subject: ShapeSubject>(in subject: Subject, path: String, strict: Bool) -> [ShapeProblem<Subject>] {
        if subject.isNullValue { return [] }
        guard let found = subject.shapeKind else { return [] }  // a template: known once rendered
        if strict, let expected = kind, found != expected {
            return [ShapeProblem(at: subject, message: "'\(path)' must be \(described), found \(subject.shapeDescription)", hint: nil)]
        }
        switch self {
        case .oneOf(let choices):
            guard strict, let text = subject.shapeText, !choices.contains(text) else { return [] }
            let hint = Suggest.nearest(text, in: choices).map { "did you mean '\($0)'?" } ?? "one of: " + choices.joined(separator: ", ")
            return [ShapeProblem(at: subject, message: "'\(path)' is '\(text)', not one the provider accepts", hint: hint)]
        case .object(let members):
            guard let pairs = subject.shapeMembers else { return [] }
            var problems: [ShapeProblem<Subject>] = []
            let names = members.map(\.name)
            // A member misspelt is reported once, as the typo: not again as missing.
            var suggested: Set<String> = []
            for pair in pairs {
                guard let member = members.first(where: { $0.name == pair.key }) else {
                    let near = Suggest.nearest(pair.key, in: names)
                    if let near { suggested.insert(near) }
                    let hint = near.map { "did you mean '\($0)'?" } ?? "accepted: " + names.joined(separator: ", ")
                    problems.append(ShapeProblem(at: pair.keySubject, message: "unknown member '\(pair.key)' in '\(path)'", hint: hint))
                    continue
                }
                problems += member.shape.problems(in: pair.value, path: path + "." + pair.key, strict: strict)
            }
            if strict {
                let given = Set(pairs.map(\.key))
                let missing = members.filter { $0.required && !given.contains($0.name) && !suggested.contains($0.name) }.map(\.name)
                if !missing.isEmpty {
                    problems.append(
                        ShapeProblem(
                            at: subject, message: "'\(path)' needs \(missing.map { "'\($0)'" }.joined(separator: ", "))",
                            hint: "the provider refuses it without; a step that expects that refusal may leave it out"))
                }
            }
            return problems
        case .list(let element):
            return (subject.shapeElements ?? []).enumerated().flatMap { index, item in
                element.problems(in: item, path: "\(path)[\(index)]", strict: strict)
            }
        case .text, .number, .boolean, .openObject, .any:
            return []
        }
    }
}

/// What is wrong with a value against a ``RequestShape``, and the part of the value it is about.
package struct ShapeProblem<Subject> {
    /// The value (or the key) the problem is about, so lint can point at its line and column.
    package var at: Subject
    /// What is wrong.
    package var message: String
    /// A did-you-mean or what is accepted.
    package var hint: String?
}

/// A value a ``RequestShape`` is checked against: a step's `with:` as written (lint), or as rendered (the run).
package protocol ShapeSubject {
    /// Its kind, or `nil` when it is known only once rendered (a template).
    var shapeKind: ValueKind? { get }
    /// Whether it is `null` (left out of the request).
    var isNullValue: Bool { get }
    /// Its text, when it is text.
    var shapeText: String? { get }
    /// Its members in order, when it is a mapping, each with the key's own subject (where a typo is pointed at).
    var shapeMembers: [(key: String, keySubject: Self, value: Self)]? { get }
    /// Its elements, when it is a list.
    var shapeElements: [Self]? { get }
    /// It in a few words, for a message.
    var shapeDescription: String { get }
}

extension Value: ShapeSubject {
    package var shapeKind: ValueKind? {
        switch self {
        case .object: .object
        case .array: .array
        case .string: .string
        case .int, .double: .number
        case .bool: .boolean
        case .null: nil
        }
    }

    package var isNullValue: Bool { self == .null }

    package var shapeText: String? { stringValue }

    package var shapeMembers: [(key: String, keySubject: Value, value: Value)]? {
        objectValue.map { members in members.keys.sorted().map { ($0, self, members[$0] ?? .null) } }
    }

    package var shapeElements: [Value]? { arrayValue }

    package var shapeDescription: String { brief }
}
