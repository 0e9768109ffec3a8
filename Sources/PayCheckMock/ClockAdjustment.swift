import Foundation

/// A change to the mock clock requested through `POST /__paycheck/clock`.
enum ClockAdjustment: Equatable, Sendable {
    /// Move forward by this many seconds.
    case advance(Double)
    /// Jump to this instant.
    case set(Date)
    /// Drop any offset: mock time equals real time again.
    case reset

    /// Units accepted after an advance amount, longest suffix first, with their length in seconds.
    private static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400),
    ]

    /// Reads `{"advance": "31m"}`, `{"advance": 90}`, `{"set": "<ISO 8601>"}` or `{"reset": true}`.
    /// - Throws: ``MockHTTPError`` (400) naming the bad value.
    init(json object: [String: MockJSON]) throws(MockHTTPError) {
        let advance = object["advance"]
        let set = object["set"]
        let unknown = object.keys.filter { $0 != "advance" && $0 != "set" && $0 != "reset" }.sorted()
        guard unknown.isEmpty else {
            throw MockHTTPError(
                .badRequest,
                "unknown clock field \(MockHTTPError.quoted(unknown.joined(separator: "', '"))); expected 'advance', 'set' or 'reset'"
            )
        }
        if let reset = object["reset"] {
            guard reset == .bool(true), advance == nil, set == nil else {
                throw MockHTTPError(.badRequest, "'reset' takes true and goes alone, got \(MockHTTPError.quoted(reset.description))")
            }
            self = .reset
            return
        }
        switch (advance, set) {
        case (let advance?, nil):
            self = .advance(try Self.seconds(from: advance))
        case (nil, let set?):
            guard let text = set.string, let date = MockTimestamp.parse(text) else {
                throw MockHTTPError(
                    .badRequest,
                    "invalid clock set value \(MockHTTPError.quoted(set.description)): expected an ISO 8601 "
                        + "date-time such as \"2026-01-15T10:00:00Z\""
                )
            }
            self = .set(date)
        case (nil, nil):
            throw MockHTTPError(
                .badRequest,
                "expected a JSON object with 'advance' (e.g. {\"advance\":\"31m\"}) or 'set' (an ISO 8601 date-time)"
            )
        case (.some, .some):
            throw MockHTTPError(.badRequest, "give either 'advance' or 'set', not both")
        }
    }

    /// Converts a JSON advance value (a number of seconds or a string such as `"+31m"`) to seconds.
    static func seconds(from value: MockJSON) throws(MockHTTPError) -> Double {
        switch value {
        case .number(let seconds):
            return try self.checked(seconds, original: value.description)
        case .string(let text):
            return try self.seconds(from: text)
        case .bool, .null, .array, .object:
            throw self.invalid(value.description)
        }
    }

    /// Parses a duration such as `31m`, `+250ms`, `1.5h` or `90` (seconds).
    static func seconds(from text: String) throws(MockHTTPError) -> Double {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.hasPrefix("-") {
            throw MockHTTPError(
                .badRequest,
                "invalid clock advance \(MockHTTPError.quoted(text)): the clock only moves forward; "
                    + "use {\"set\": \"<ISO 8601>\"} to go back"
            )
        }
        if body.hasPrefix("+") { body = body.dropFirst() }
        var multiplier = 1.0
        for unit in self.units where body.hasSuffix(unit.suffix) {
            body = body.dropLast(unit.suffix.count)
            multiplier = unit.seconds
            break
        }
        let number = body.trimmingCharacters(in: .whitespaces)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let amount = Double(number)
        else {
            throw self.invalid(text)
        }
        return try self.checked(amount * multiplier, original: text)
    }

    /// Rejects negative and non-finite amounts.
    private static func checked(_ seconds: Double, original: String) throws(MockHTTPError) -> Double {
        guard seconds.isFinite, seconds >= 0 else {
            throw self.invalid(original)
        }
        return seconds
    }

    /// The error for an unreadable advance value.
    private static func invalid(_ text: String) -> MockHTTPError {
        MockHTTPError(
            .badRequest,
            "invalid clock advance \(MockHTTPError.quoted(text)): expected a non-negative number of seconds or a "
                + "number followed by ms, s, m, h or d (e.g. \"31m\")"
        )
    }
}
