import Foundation
import PayCheckCore
import PayCheckProviders
import HTTPTypes

/// A fault injected through `POST /__paycheck/faults` (or `mock: fault`), declared by ``FaultKind`` and ``FaultSpec``
/// in Core: the kinds, their parameters and the checks are shared with lint.
struct Fault: Sendable {
    /// Which requests (or notifications) a fault applies to.
    enum Target: Sendable {
        /// Requests whose path starts with this prefix.
        case path(String)
        /// Requests to a provider: every route under its base paths, or only the listed operations' routes.
        case provider(id: String, basePaths: [String], operations: [ProviderOperation.Route]?)
        /// The provider's outgoing notifications.
        case webhooks(provider: String)
    }

    /// The identifier shown in listings, e.g. `fault-1`.
    var id: String
    /// What it applies to.
    var target: Target
    /// What happens.
    var kind: FaultKind
    /// The parameters of `kind` (status, retryAfter, contentType, delayMs, jitterMs, dripMs), as given.
    var parameters: [String: Value]
    /// How many more matches it applies to; `nil` with a ratio (until cleared).
    var remaining: Int?
    /// The share of matching requests it applies to.
    var ratio: Double?
    /// Matching requests seen so far (for the ratio).
    var seen = 0
    /// Times it was applied.
    var applied = 0

    /// The parameter `name` as a whole number, or `fallback`.
    func number(_ name: String, _ fallback: Int = 0) -> Int {
        self.parameters[name]?.wholeNumber ?? fallback
    }

    /// Whether the fault applies to a request `method path`.
    func matches(method: String, path: String) -> Bool {
        switch self.target {
        case .path(let prefix):
            return path.hasPrefix(prefix)
        case .provider(_, let basePaths, let operations):
            for base in basePaths where path == base || path.hasPrefix(base + "/") {
                guard let operations else { return true }
                let rest = String(path.dropFirst(base.count))
                if operations.contains(where: { $0.matches(method: method, path: rest) }) { return true }
            }
            return false
        case .webhooks:
            return false
        }
    }

    /// The fault as it appears in control responses.
    var json: Value {
        var members = self.parameters
        members["id"] = .string(self.id)
        members["kind"] = .string(self.kind.rawValue)
        switch self.target {
        case .path(let prefix): members["path"] = .string(prefix)
        case .provider(let id, _, let operations):
            members["provider"] = .string(id)
            if let operations, let first = operations.first { members["operation"] = .string(first.name) }
        case .webhooks(let provider): members["provider"] = .string(provider)
        }
        if let remaining = self.remaining { members["remaining"] = .int(remaining) }
        if let ratio = self.ratio { members["ratio"] = .double(ratio) }
        members["applied"] = .int(self.applied)
        return .object(members)
    }
}

extension Fault {
    /// Reads a fault from a control request body such as
    /// `{"provider":"mollie","operation":"createPayment","kind":"status","status":503}`, checked by ``FaultSpec``.
    /// - Throws: ``MockHTTPError`` (400) naming every problem.
    init(json object: [String: Value], id: String, providers: [any Provider]) throws(MockHTTPError) {
        let unknown = object.keys.filter { !FaultSpec.parameters.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw MockHTTPError(
                .badRequest,
                "unknown fault field \(MockHTTPError.quoted(unknown.joined(separator: "', '"))); "
                    + "expected \(FaultSpec.parameters.joined(separator: ", "))")
        }
        let problems = FaultSpec.problems(object)
        guard problems.isEmpty else { throw MockHTTPError(.badRequest, problems.joined(separator: "; ")) }
        let kind = FaultKind(rawValue: object["kind"]?.stringValue ?? "")!
        let target: Target
        if let path = object["path"] {
            guard let prefix = path.stringValue, prefix.hasPrefix("/") else {
                throw MockHTTPError(.badRequest, "fault 'path' must be a string starting with '/', got \(MockHTTPError.quoted(path.displayText))")
            }
            // Faults apply to mock routes, and to echo and key-value routes (what examples and benchmarks use).
            guard !ControlPath.isControl(prefix) || ControlPath.isEcho(prefix) || ControlPath.isKeyValue(prefix) else {
                throw MockHTTPError(.badRequest, "fault path \(MockHTTPError.quoted(prefix)) is a control route; faults apply only to mock routes")
            }
            target = .path(prefix)
        } else {
            let name = object["provider"]?.stringValue ?? ""
            guard let provider = providers.first(where: { $0.id == name }) else {
                throw MockHTTPError(
                    .badRequest,
                    "unknown fault provider \(MockHTTPError.quoted(name)); hosted: \(providers.map(\.id).joined(separator: ", "))")
            }
            if kind.isWebhookFault {
                target = .webhooks(provider: provider.id)
            } else if let operation = object["operation"] {
                let wanted = operation.stringValue ?? ""
                guard let declared = provider.operations.first(where: { $0.name == wanted }) else {
                    let names = provider.operations.map(\.name)
                    let near = Suggest.nearest(wanted, in: names).map { " (did you mean '\($0)'?)" } ?? ""
                    throw MockHTTPError(
                        .badRequest,
                        "unknown \(provider.id) operation \(MockHTTPError.quoted(wanted))\(near); known: \(names.joined(separator: ", "))")
                }
                target = .provider(
                    id: provider.id, basePaths: provider.mockBasePaths,
                    operations: [declared.route])
            } else {
                target = .provider(id: provider.id, basePaths: provider.mockBasePaths, operations: nil)
            }
        }
        var parameters: [String: Value] = [:]
        for key in kind.parameters { if let value = object[key] { parameters[key] = value } }
        let ratio = object["ratio"]?.numberValue
        self.init(
            id: id, target: target, kind: kind, parameters: parameters,
            remaining: ratio == nil ? (object["count"]?.wholeNumber ?? 1) : nil, ratio: ratio)
    }
}
