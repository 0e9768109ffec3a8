import Foundation
import PayCheckCore

/// Field checks for PlacetoPay request bodies, each failing with a 400 `BR` envelope that names the field
/// (choice for undocumented validation errors, providers.md §1.3, §1.13).
struct PlacetoPayFieldCheck {
    /// The mock time stamped on failures.
    let now: Date
    /// The site's limit on digits before the decimal point of an amount (`maxAmountDigits`).
    var maxAmountDigits = AmountRule.defaultIntegerDigits

    /// A validation failure with `message`.
    func fail(_ message: String) -> PlacetoPayFailure {
        PlacetoPayFailure.invalidField(message, at: self.now)
    }

    /// The dotted path of `key` inside `parent`.
    private func path(_ key: String, in parent: String?) -> String {
        parent.map { "\($0).\(key)" } ?? key
    }

    /// `value` as an object, or a failure naming `path`.
    func object(_ value: Value, _ path: String) throws(PlacetoPayFailure) -> [String: Value] {
        if case .null = value { throw self.fail("The \(path) field is required") }
        guard let object = value.objectValue else {
            throw self.fail("The \(path) field must be an object, got \(value.typeDescription)")
        }
        return object
    }

    /// The string member `key` of `object`: `nil` when absent and not required; never empty; at most `maxLength`.
    func string(
        _ object: [String: Value],
        _ key: String,
        in parent: String? = nil,
        required: Bool,
        maxLength: Int
    ) throws(PlacetoPayFailure) -> String? {
        let path = self.path(key, in: parent)
        guard let value = object[key], value != .null else {
            if required { throw self.fail("The \(path) field is required") }
            return nil
        }
        guard let text = value.stringValue else {
            throw self.fail("The \(path) field must be a string, got \(value.typeDescription)")
        }
        guard !text.isEmpty else {
            throw self.fail(required ? "The \(path) field is required" : "The \(path) field must not be empty")
        }
        guard text.count <= maxLength else {
            throw self.fail(
                "The \(path) field must be at most \(maxLength) characters, got \(text.count): "
                    + PlacetoPaySessionRequest.quoted(text))
        }
        return text
    }

    /// An amount in `currency` (see ``PlacetoPaySessionRequest/amountProblem(_:_:currency:maxDigits:allowsZero:)``).
    func amount(_ value: Value, _ path: String, currency: String, allowsZero: Bool = false) throws(PlacetoPayFailure) {
        if let problem = PlacetoPaySessionRequest.amountProblem(
            value, path, currency: currency, maxDigits: self.maxAmountDigits, allowsZero: allowsZero)
        {
            throw self.fail(problem)
        }
    }

    /// A URL member (max 255 characters, §1.4) with a scheme, e.g. `https://…` or an app deep link.
    func url(_ object: [String: Value], _ key: String, required: Bool) throws(PlacetoPayFailure) -> String? {
        guard let text = try self.string(object, key, required: required, maxLength: 255) else { return nil }
        guard let scheme = URL(string: text)?.scheme, !scheme.isEmpty else {
            throw self.fail("The \(key) field must be an absolute URL, got \(PlacetoPaySessionRequest.quoted(text))")
        }
        return text
    }

    /// A boolean member: `true`/`false`, or the strings `"true"`/`"false"` the Python client sends; `nil` when absent.
    func bool(_ value: Value?, _ path: String) throws(PlacetoPayFailure) -> Bool? {
        guard let value, value != .null else { return nil }
        guard let flag = value.boolValue else {
            throw self.fail("The \(path) field must be a boolean, got \(PlacetoPaySessionRequest.describe(value))")
        }
        return flag
    }

    /// A `fields[]` member: an array of `{keyword ≤ 50, value, displayOn}` objects (§1.4 NameValuePair).
    func fields(_ value: Value?, _ path: String) throws(PlacetoPayFailure) {
        guard let value, value != .null else { return }
        guard let items = value.arrayValue else {
            throw self.fail("The \(path) field must be an array, got \(value.typeDescription)")
        }
        for (index, item) in items.enumerated() {
            let object = try self.object(item, "\(path)[\(index)]")
            _ = try self.string(object, "keyword", in: "\(path)[\(index)]", required: true, maxLength: 50)
        }
    }
}
