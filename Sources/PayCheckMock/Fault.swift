import PayCheckCore

/// A fault injected through `POST /__paycheck/faults`, applied to the next matching requests.
struct Fault: Equatable, Sendable {
    /// What the host does instead of (or before) routing a matching request.
    enum Kind: Equatable, Sendable {
        /// Answer this status with `{"error":"injected fault"}` without reaching the route.
        case status(Int)
        /// Answer 200 with the truncated JSON body `{"truncated": `.
        case malformed
        /// Wait this many milliseconds, then route the request normally.
        case delay(milliseconds: Int)
        /// Close the connection without answering (a 502 in `.router` tests; see ``FaultMiddleware``).
        case reset

        /// The kind's name in the control API.
        var name: String {
            switch self {
            case .status: return "status"
            case .malformed: return "malformed"
            case .delay: return "delay"
            case .reset: return "reset"
            }
        }
    }

    /// The largest delay accepted, so a typo cannot stall a suite for long.
    static let maximumDelayMilliseconds = 60_000

    /// The identifier shown in listings, e.g. `fault-1`.
    var id: String
    /// Requests whose path starts with this prefix are affected.
    var pathPrefix: String
    /// What to do.
    var kind: Kind
    /// How many more requests this fault applies to.
    var remaining: Int

    /// The fault as it appears in control responses.
    var json: Value {
        var members: [String: Value] = [
            "id": .string(self.id),
            "path": .string(self.pathPrefix),
            "kind": .string(self.kind.name),
            "remaining": .int(self.remaining),
        ]
        switch self.kind {
        case .status(let status): members["status"] = .int(status)
        case .delay(let milliseconds): members["delayMs"] = .int(milliseconds)
        case .malformed, .reset: break
        }
        return .object(members)
    }
}

extension Fault {
    /// Reads a fault from a control request body such as
    /// `{"path":"/placetopay/api/session","count":2,"kind":"status","status":503}`.
    /// - Parameter id: The identifier to give the fault.
    /// - Throws: ``MockHTTPError`` (400) naming the bad field and value.
    init(json object: [String: Value], id: String) throws(MockHTTPError) {
        let known: Set<String> = ["path", "count", "kind", "status", "delayMs"]
        let unknown = object.keys.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw MockHTTPError(
                .badRequest,
                "unknown fault field \(MockHTTPError.quoted(unknown.joined(separator: "', '"))); "
                    + "expected path, count, kind, status or delayMs"
            )
        }
        guard let path = object["path"]?.stringValue, path.hasPrefix("/") else {
            throw MockHTTPError(
                .badRequest,
                "fault 'path' must be a string starting with '/', got \(Self.quoted(object["path"]))"
            )
        }
        // Faults apply to mock routes, and to echo and key-value routes (what examples and benchmarks use).
        guard !ControlPath.isControl(path) || ControlPath.isEcho(path) || ControlPath.isKeyValue(path) else {
            throw MockHTTPError(
                .badRequest,
                "fault path \(MockHTTPError.quoted(path)) is a control route; faults apply only to mock routes"
            )
        }
        var count = 1
        if let value = object["count"] {
            guard let parsed = value.wholeNumber, parsed >= 1 else {
                throw MockHTTPError(.badRequest, "fault 'count' must be a positive integer, got \(Self.quoted(value))")
            }
            count = parsed
        }
        self.init(id: id, pathPrefix: path, kind: try Self.kind(from: object), remaining: count)
    }

    /// Reads `kind` and its parameter.
    private static func kind(from object: [String: Value]) throws(MockHTTPError) -> Kind {
        switch object["kind"]?.stringValue {
        case "status":
            guard let status = object["status"]?.wholeNumber, (200...599).contains(status) else {
                throw MockHTTPError(
                    .badRequest,
                    "fault kind 'status' needs 'status' between 200 and 599, got \(Self.quoted(object["status"]))"
                )
            }
            return .status(status)
        case "malformed":
            return .malformed
        case "delay":
            guard let delay = object["delayMs"]?.wholeNumber, (0...Self.maximumDelayMilliseconds).contains(delay) else {
                throw MockHTTPError(
                    .badRequest,
                    "fault kind 'delay' needs 'delayMs' between 0 and \(Self.maximumDelayMilliseconds), "
                        + "got \(Self.quoted(object["delayMs"]))"
                )
            }
            return .delay(milliseconds: delay)
        case "reset":
            return .reset
        default:
            throw MockHTTPError(
                .badRequest,
                "unknown fault kind \(Self.quoted(object["kind"])); expected status, malformed, delay or reset"
            )
        }
    }

    /// Quotes an optional field value for a message; a missing field reads as `missing`.
    private static func quoted(_ value: Value?) -> String {
        value.map { MockHTTPError.quoted($0.displayText) } ?? "nothing (field missing)"
    }
}
