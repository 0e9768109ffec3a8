/// The faults the mock host injects (`mock: fault` in a suite, `POST /__paycheck/faults` from anywhere): declared once
/// here, for the mock (which applies them), lint (which checks names and arguments) and the suite schema.
///
/// A fault targets a provider's operation (`provider` + `operation`, or every operation of the provider), a provider's
/// outgoing webhooks (the webhook kinds), or a path prefix (`path`); it applies to the next `count` matching requests
/// (default 1), or to a `ratio` of them (every request whose running share crosses the ratio, so 0.5 hits every second
/// one, deterministically) until cleared.
package enum FaultKind: String, Sendable, CaseIterable {
    /// Answer `status` (200–599) without reaching the route; `retryAfter` seconds adds `Retry-After` (e.g. a 429).
    case status
    /// Answer 200 with a body the provider's codec cannot read (cut JSON, or a bad MIT cipher envelope).
    case malformed
    /// Answer 200 with an empty body.
    case empty
    /// Route the request, then send only the first half of the answer's body.
    case truncated
    /// Route the request, then answer with `contentType` (default `text/html`) instead of the route's.
    case contentType
    /// Wait `delayMs` (plus up to `jitterMs` more), then route the request normally.
    case delay
    /// Close the connection without answering.
    case reset
    /// Route the request, then close the connection without answering: the provider did the work (created the
    /// payment) but the client never learns it, as when an answer is lost on the way back.
    case lost
    /// Route the request, then send its body in small pieces `dripMs` apart.
    case slowDrip
    /// Route the request, then set the JSON answer's `field` (a dotted path of object keys) to `value`: an answer
    /// that changed under the merchant (a renamed state, a new enum value), which `paycheck drift` must name.
    case field
    /// Webhooks: deliver the next notification twice.
    case duplicate
    /// Webhooks: hold the next notification until the one after it was delivered.
    case outOfOrder
    /// Webhooks: deliver the next notification `delayMs` later on the mock clock.
    case delayedDelivery
    /// Webhooks: alter the next notification's body after it was signed, so its signature no longer verifies.
    case tamperedSignature
    /// Webhooks: after the next notification, deliver the previous one of the same resource again.
    case replay
    /// Webhooks: the receiver "times out" on the next attempt (the mock treats it as failed and retries on schedule).
    case receiverTimeout

    /// Whether the kind applies to a provider's outgoing webhooks rather than to requests the mock receives.
    package var isWebhookFault: Bool {
        switch self {
        case .duplicate, .outOfOrder, .delayedDelivery, .tamperedSignature, .replay, .receiverTimeout: true
        default: false
        }
    }

    /// The kind-specific parameters it accepts.
    package var parameters: [String] {
        switch self {
        case .status: ["status", "retryAfter"]
        case .contentType: ["contentType"]
        case .delay: ["delayMs", "jitterMs"]
        case .slowDrip: ["dripMs"]
        case .field: ["field", "value"]
        case .delayedDelivery: ["delayMs"]
        case .malformed, .empty, .truncated, .reset, .lost, .duplicate, .outOfOrder, .tamperedSignature, .replay, .receiverTimeout: []
        }
    }
}

/// The `with:` keys of `mock: fault`, and the checks lint and the mock share.
package enum FaultSpec {
    /// Where a fault applies and how often.
    package static let targetParameters = ["kind", "path", "provider", "operation", "count", "ratio"]
    /// Every accepted key.
    package static var parameters: [String] {
        var keys = self.targetParameters
        for kind in FaultKind.allCases { keys += kind.parameters.filter { !keys.contains($0) } }
        return keys
    }
    /// The longest delay or drip interval accepted, in milliseconds, so a typo cannot stall a suite for long.
    static let maximumDelayMilliseconds = 60_000

    /// What is wrong with a fault's parameters; empty when nothing is. Values of `templated` keys are not known yet
    /// (the mock checks them once rendered), so only their presence counts.
    package static func problems(_ members: [String: Value], templated: Set<String> = []) -> [String] {
        var problems: [String] = []
        if templated.contains("kind") { return [] }
        guard let kindValue = members["kind"] else { return ["a fault needs 'kind' (one of \(self.kindList))"] }
        guard case .string(let kindName) = kindValue else { return ["fault 'kind' must be one of \(self.kindList)"] }
        guard let kind = FaultKind(rawValue: kindName) else {
            let near = Suggest.nearest(kindName, in: FaultKind.allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" } ?? ""
            return ["unknown fault kind '\(kindName)'\(near); expected one of \(self.kindList)"]
        }
        for key in members.keys.sorted() where !self.targetParameters.contains(key) && !kind.parameters.contains(key) {
            problems.append(
                "'\(key)' does not apply to fault kind '\(kindName)'"
                    + (kind.parameters.isEmpty ? "" : " (it takes \(kind.parameters.joined(separator: ", ")))"))
        }
        if kind.isWebhookFault {
            if members["provider"] == nil { problems.append("webhook fault '\(kindName)' needs 'provider'") }
            if members["path"] != nil || members["operation"] != nil {
                problems.append("webhook fault '\(kindName)' applies to a provider's notifications, not to 'path' or 'operation'")
            }
        } else if members["path"] == nil, members["provider"] == nil {
            problems.append("a fault needs 'provider' (and optionally 'operation') or 'path'")
        }
        if members["path"] != nil, members["provider"] != nil || members["operation"] != nil {
            problems.append("give a fault either 'path' or 'provider'/'operation', not both")
        }
        if members["count"] != nil, members["ratio"] != nil { problems.append("give a fault either 'count' or 'ratio', not both") }
        func number(_ key: String, _ range: ClosedRange<Double>) {
            guard let value = members[key], !templated.contains(key) else { return }
            guard value.typeName != "string", let number = value.numberValue, range.contains(number) else {
                problems.append("fault '\(key)' must be a number in \(Value.format(range.lowerBound))…\(Value.format(range.upperBound)), got \(value.brief)")
                return
            }
            if key != "ratio", number.rounded() != number { problems.append("fault '\(key)' must be a whole number, got \(value.brief)") }
        }
        number("count", 1...1_000_000)
        number("ratio", 0.000_001...1)
        number("status", 200...599)
        number("retryAfter", 0...86_400)
        number("delayMs", 0...Double(self.maximumDelayMilliseconds))
        number("jitterMs", 0...Double(self.maximumDelayMilliseconds))
        number("dripMs", 1...5_000)
        if kind == .status, members["status"] == nil { problems.append("fault kind 'status' needs 'status' (200–599)") }
        if kind == .field {
            if let field = members["field"], !templated.contains("field"), field.stringValue?.split(separator: ".").isEmpty != false {
                problems.append("fault 'field' must be a dotted path of keys like status or details.card, got \(field.brief)")
            }
            if members["field"] == nil || members["value"] == nil { problems.append("fault kind 'field' needs 'field' and 'value'") }
        }
        if kind == .delay || kind == .delayedDelivery, members["delayMs"] == nil {
            problems.append("fault kind '\(kindName)' needs 'delayMs'")
        }
        return problems
    }

    private static var kindList: String { FaultKind.allCases.map(\.rawValue).joined(separator: ", ") }
}
