import Yams

/// A step's `with:` as written: lint checks it against a ``RequestShape``, pointing at each problem's line and column.
extension Node: ShapeSubject {
    var shapeKind: ValueKind? { SuiteParser.literalKind(self) }

    var isNullValue: Bool {
        guard case .scalar(let scalar) = self else { return false }
        return tagName == .null || (scalar.style == .plain && scalar.string.isEmpty)
    }

    var shapeText: String? { shapeKind == .string ? scalar?.string : nil }

    var shapeMembers: [(key: String, keySubject: Node, value: Node)]? {
        mapping.map { pairs in pairs.map { (key: $0.key.scalar?.string ?? "", keySubject: $0.key, value: $0.value) } }
    }

    var shapeElements: [Node]? { sequence.map(Array.init) }

    var shapeDescription: String {
        switch self {
        case .scalar(let scalar): "'\(scalar.string.count > 60 ? String(scalar.string.prefix(57)) + "…" : scalar.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}
