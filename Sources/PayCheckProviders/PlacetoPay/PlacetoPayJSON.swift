import PayCheckCore

/// Small readers over `Value` used by the PlacetoPay adapter, kept in a namespace so they cannot clash with
/// other providers' helpers in this module.
enum PlacetoPayJSON {
    /// The members of an object, or `nil` when `value` is not one.
    static func object(_ value: Value?) -> [String: Value]? {
        if case .object(let members)? = value { return members }
        return nil
    }

    /// The member `key` of an object value.
    static func member(_ value: Value?, _ key: String) -> Value? {
        object(value)?[key]
    }

    /// The member `key` as text when it is a scalar (numbers in decimal); `nil` when absent, null or a container.
    static func string(_ value: Value?, _ key: String) -> String? {
        scalarText(member(value, key))
    }

    /// A scalar as text; `nil` for null, containers and absence.
    static func scalarText(_ value: Value?) -> String? {
        switch value {
        case .string(let s)?: s
        case .int, .double, .bool: value?.interpolated
        default: nil
        }
    }

    /// The `status` object of a PlacetoPay body: its `status` and `reason` as text (reason may be numeric).
    static func status(_ container: Value?) -> (status: String, reason: String?, message: String?)? {
        guard let status = member(container, "status"), let name = string(status, "status") else { return nil }
        let reason = string(status, "reason").flatMap { $0.isEmpty ? nil : $0 }
        return (name, reason, string(status, "message"))
    }

    /// JSON bytes of a value.
    static func bytes(_ value: Value) -> [UInt8] {
        JSONText.encodeBytes(value)
    }
}
