package import Foundation

/// A change to the mock clock requested through `POST /__paycheck/clock` (a `mock: clock` step's `with:`): the one
/// reading of it, for the mock that applies it and for lint, which refuses before a run what the mock would refuse.
package enum ClockAdjustment: Equatable, Sendable {
    /// Move forward by this many seconds.
    case advance(Double)
    /// Jump to this instant.
    case set(Date)
    /// Drop any offset: mock time equals real time again.
    case reset

    /// Why a clock change is refused, in words that quote the bad value.
    package struct Problem: Error, Sendable, Equatable {
        /// The message.
        package var message: String
    }

    /// Reads `{"advance": "31m"}`, `{"advance": 90}`, `{"set": "<ISO 8601>"}` or `{"reset": true}`.
    /// - Throws: ``Problem`` naming the bad value.
    package init(json object: [String: Value]) throws(Problem) {
        let advance = object["advance"]
        let set = object["set"]
        let unknown = object.keys.filter { $0 != "advance" && $0 != "set" && $0 != "reset" }.sorted()
        guard unknown.isEmpty else {
            throw Problem(
                message: "unknown clock field \(Self.quoted(unknown.joined(separator: "', '"))); expected 'advance', 'set' or 'reset'"
            )
        }
        if let reset = object["reset"] {
            guard reset == .bool(true), advance == nil, set == nil else {
                throw Problem(message: "'reset' takes true and goes alone, got \(Self.quoted(reset.displayText))")
            }
            self = .reset
            return
        }
        switch (advance, set) {
        case (let advance?, nil):
            self = .advance(try Self.seconds(from: advance))
        case (nil, let set?):
            guard let text = set.stringValue, let date = ISOTimestamp.parse(text.trimmingCharacters(in: .whitespaces)) else {
                throw Problem(
                    message: "invalid clock set value \(Self.quoted(set.displayText)): expected an ISO 8601 "
                        + "date-time such as \"2026-01-15T10:00:00Z\""
                )
            }
            self = .set(date)
        case (nil, nil):
            throw Problem(
                message: "expected a JSON object with 'advance' (e.g. {\"advance\":\"31m\"}) or 'set' (an ISO 8601 date-time)"
            )
        case (.some, .some):
            throw Problem(message: "give either 'advance' or 'set', not both")
        }
    }

    /// Converts a JSON advance value (a number of seconds or a string such as `"+31m"`) to seconds.
    package static func seconds(from value: Value) throws(Problem) -> Double {
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
    package static func seconds(from text: String) throws(Problem) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("-") {
            throw Problem(
                message: "invalid clock advance \(Self.quoted(text)): the clock only moves forward; "
                    + "use {\"set\": \"<ISO 8601>\"} to go back"
            )
        }
        guard !trimmed.contains(where: { $0 == "e" || $0 == "E" }) else { throw self.invalid(text) }
        do throws(DurationError) {
            return try DurationText.parse(trimmed)
        } catch  where error.problem == .outOfBounds {
            throw Problem(message: "invalid clock advance \(error.message)")
        } catch {
            throw self.invalid(text)
        }
    }

    /// `seconds` when it is within ``DurationText/maximumSeconds``.
    private static func bounded(_ seconds: Double, original: String) throws(Problem) -> Double {
        do throws(DurationError) {
            return try DurationText.checked(seconds, text: original)
        } catch {
            throw Problem(message: "invalid clock advance \(error.message)")
        }
    }

    /// The error for an unreadable advance value.
    private static func invalid(_ text: String) -> Problem {
        Problem(
            message: "invalid clock advance \(Self.quoted(text)): expected a non-negative number of seconds or a "
                + "number followed by ms, s, m, h or d (e.g. \"31m\")"
        )
    }

    /// `value` in quotes, cut at `limit` characters.
    static func quoted(_ value: String, limit: Int = 200) -> String {
        "'" + (value.count > limit ? String(value.prefix(limit)) + "…" : value) + "'"
    }
}
