import Foundation
import PayCheckCore

/// A change to the mock clock requested through `POST /__paycheck/clock`.
enum ClockAdjustment: Equatable, Sendable {
    /// Move forward by this many seconds.
    case advance(Double)
    /// Jump to this instant.
    case set(Date)
    /// Drop any offset: mock time equals real time again.
    case reset

    /// Reads `{"advance": "31m"}`, `{"advance": 90}`, `{"set": "<ISO 8601>"}` or `{"reset": true}`.
    /// - Throws: ``MockHTTPError`` (400) naming the bad value.
    init(json object: [String: Value]) throws(MockHTTPError) {
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
                throw MockHTTPError(.badRequest, "'reset' takes true and goes alone, got \(MockHTTPError.quoted(reset.displayText))")
            }
            self = .reset
            return
        }
        switch (advance, set) {
        case (let advance?, nil):
            self = .advance(try Self.seconds(from: advance))
        case (nil, let set?):
            guard let text = set.stringValue, let date = ISOTimestamp.parse(text.trimmingCharacters(in: .whitespaces)) else {
                throw MockHTTPError(
                    .badRequest,
                    "invalid clock set value \(MockHTTPError.quoted(set.displayText)): expected an ISO 8601 "
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
    static func seconds(from value: Value) throws(MockHTTPError) -> Double {
        switch value {
        case .int, .double:
            let seconds = value.number ?? -1
            guard seconds >= 0 else { throw self.invalid(value.displayText) }
            return try self.bounded(seconds, original: value.displayText)
        case .string(let text):
            return try self.seconds(from: text)
        case .bool, .null, .array, .object:
            throw self.invalid(value.displayText)
        }
    }

    /// Parses a duration such as `31m`, `+250ms`, `1.5h` or `90` (seconds) with ``DurationText``.
    ///
    /// Stricter than suites: no exponent (`1e3m`), and no minus sign, because the clock only moves forward.
    static func seconds(from text: String) throws(MockHTTPError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("-") {
            throw MockHTTPError(
                .badRequest,
                "invalid clock advance \(MockHTTPError.quoted(text)): the clock only moves forward; "
                    + "use {\"set\": \"<ISO 8601>\"} to go back"
            )
        }
        guard !trimmed.contains(where: { $0 == "e" || $0 == "E" }) else { throw self.invalid(text) }
        do throws(DurationError) {
            return try DurationText.parse(trimmed)
        } catch where error.problem == .outOfBounds {
            throw MockHTTPError(.badRequest, "invalid clock advance \(error.message)")
        } catch {
            throw self.invalid(text)
        }
    }

    /// `seconds` when it is within ``DurationText/maximumSeconds``.
    private static func bounded(_ seconds: Double, original: String) throws(MockHTTPError) -> Double {
        do throws(DurationError) {
            return try DurationText.checked(seconds, text: original)
        } catch {
            throw MockHTTPError(.badRequest, "invalid clock advance \(error.message)")
        }
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
