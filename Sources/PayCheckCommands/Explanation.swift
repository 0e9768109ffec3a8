import PayCheckCore
import PayCheckMock
package import PayCheckProviders
import Foundation

/// What `paycheck explain` prints: a provider error code's catalog entry, a native state's mapping row, an operation's
/// or action's parameters, a merchant rule, or a provider's whole listing, from the providers' declarations.
package enum Explanation {
    /// `code` names nothing the providers know; the description is the message after `error: `, with the nearest name.
    package struct NotFound: Error, CustomStringConvertible {
        package let description: String
    }

    /// The text for `code` across `providers` (those of `--provider`, when given): a rule, else the operations or
    /// actions it names, else its catalog entries and mapping rows. Without a code, the listing of every provider.
    /// - Throws: ``NotFound`` when `code` names nothing, with the nearest name there is.
    package static func text(for code: String?, in providers: [any Provider], provider: String? = nil) throws(NotFound) -> String {
        guard let code else { return providers.map { listing($0) }.joined(separator: "\n") }
        if let rule = providers.flatMap(\.merchantRules).first(where: { $0.rule.id.lowercased() == code.lowercased() }) {
            return describe(rule)
        }
        let operations = Self.operations(code, in: providers)
        if !operations.isEmpty { return operations.joined(separator: "\n\n") }
        let lines = Self.explain(code, in: providers)
        guard !lines.isEmpty else {
            let all = providers.flatMap { p -> [String] in
                let codes: [String] = p.errorCatalog.entries.map(\.code) + p.outcomeMapping.rules.map(\.key)
                let names: [String] = p.merchantRules.map(\.rule.id) + p.operations.map(\.name)
                return codes + names + p.controlActions.map { "\($0.kind.rawValue):\($0.name)" }
            }
            let hint = Suggest.nearest(code, in: all).map { "; did you mean '\($0)'?" } ?? ""
            throw NotFound(description: "no \(provider.map { "'\($0)' " } ?? "")error code, native state, operation, action or rule '\(code)'\(hint)")
        }
        return lines.joined(separator: "\n")
    }

    /// The entries and mapping rows for `code` across `providers`; exact matches win over case-insensitive ones.
    ///
    /// A bare state (`REJECTED`) lists every row of that state; `STATE/REASON` without a row of its own
    /// (`REJECTED/XN`) shows the row that applies to it.
    static func explain(_ code: String, in providers: [any Provider]) -> [String] {
        for exact in [true, false] {
            let same: (String, String) -> Bool = { exact ? $0 == $1 : $0.lowercased() == $1.lowercased() }
            let slash = code.firstIndex(of: "/")
            var lines: [String] = []
            for p in providers {
                for entry in p.errorCatalog.entries where same(entry.code, code) {
                    lines.append(describe(entry, provider: p.id))
                }
                let rows = p.outcomeMapping.rules.filter { same($0.key, code) || (slash == nil && same($0.state, code)) }
                lines += rows.map { describe($0, provider: p.id) }
                if rows.isEmpty, let slash {
                    let state = String(code[..<slash])
                    let reason = String(code[code.index(after: slash)...])
                    let known = p.outcomeMapping.rules.first { same($0.state, state) }?.state ?? state
                    if let rule = p.outcomeMapping.rule(state: known, reason: reason) {
                        lines.append(describe(rule, provider: p.id, asked: code))
                    }
                }
            }
            if !lines.isEmpty { return lines }
        }
        return []
    }

    /// The operations (`createPayment`, `mollie.createPayment`) or actions (`payer:pay`, `mock:fault`) named `code`, one
    /// block per provider that has it; empty when `code` names none.
    static func operations(_ code: String, in providers: [any Provider]) -> [String] {
        let parts = code.split(separator: ".", maxSplits: 1).map(String.init)
        let (only, name) = parts.count == 2 && providers.contains { $0.id == parts[0] } ? (Optional(parts[0]), parts[1]) : (nil, code)
        var blocks: [String] = []
        for p in providers where only == nil || p.id == only {
            for operation in p.operations where operation.name == name { blocks.append(describe(operation, provider: p)) }
            for action in p.controlActions where "\(action.kind.rawValue):\(action.name)" == name || "\(action.kind.rawValue) \(action.name)" == name {
                blocks.append(describe(action, provider: p.id))
            }
        }
        if blocks.isEmpty, name == "mock:fault" || name == "mock fault" {
            blocks.append(Self.faultHelp)
        }
        return blocks
    }

    /// One operation of a provider: method, path, parameters, idempotency key, auth overrides.
    static func describe(_ operation: ProviderOperation, provider: any Provider) -> String {
        let body: String =
            switch operation.bodyCodec {
            case .none: "no body"
            case .json: "JSON body"
            case .form: "form body"
            case .xml(let root): "XML body <\(root)>"
            case .provider(let type): "\(type) body, encoded by the adapter"
            }
        var lines = ["\(provider.id) \(operation.name) — \(operation.method) \(operation.path) (\(body))"]
        if !operation.parameters.isEmpty || operation.idempotencyHeader != nil {
            lines.append("  with:")
            let width = max(operation.acceptedKeys.map(\.count).max() ?? 0, 14)
            for parameter in operation.parameters {
                let place: String =
                    switch parameter.placement {
                    case .path: "path"
                    case .query: "query"
                    case .header(let name): "header \(name)"
                    case .body: "body"
                    }
                var notes = [place]
                if parameter.required { notes.append("required") }
                if let kind = parameter.kind, parameter.shape == nil { notes.append("a \(kind.rawValue)") }
                if let shape = parameter.shape { notes.append(shape.described) }
                if let value = parameter.defaultValue { notes.append("default \(value.brief)") }
                lines.append("    \(parameter.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(notes.joined(separator: ", "))")
                // The members of a shaped parameter, with their kinds and whether the provider requires them.
                lines += parameter.shape?.outline(indent: "      ") ?? []
            }
            if let header = operation.idempotencyHeader {
                lines.append("    \(ProviderOperation.idempotencyKeyParameter.padding(toLength: width, withPad: " ", startingAt: 0))  header \(header)")
            }
        }
        if !operation.authKeys.isEmpty { lines.append("  auth: overrides \(operation.authKeys.joined(separator: ", "))") }
        if let created = operation.createdPayment {
            lines.append("  creates a payment: its id is '\(created)' in the answer (a merchant run links it to the case)")
        }
        return lines.joined(separator: "\n")
    }

    /// One control action of a provider.
    static func describe(_ action: ControlAction, provider: String) -> String {
        let optional = action.parameters.filter { !action.required.contains($0) }
        var line = "\(provider) \(action.kind.rawValue): \(action.name)"
        if action.runsAlone { line += " (its case runs alone)" }
        return line + "\n  with: " + (action.required.map { "\($0) (required)" } + optional).joined(separator: ", ")
    }

    /// `mock: fault`: the host's faults, for every provider.
    static var faultHelp: String {
        var lines = ["mock: fault (every provider) — with: " + FaultSpec.targetParameters.joined(separator: ", "), "  kinds:"]
        for kind in FaultKind.allCases {
            let parameters = kind.parameters.isEmpty ? "" : " (" + kind.parameters.joined(separator: ", ") + ")"
            lines.append("    \(kind.rawValue)\(parameters)\(kind.isWebhookFault ? ", on the provider's notifications" : "")")
        }
        return lines.joined(separator: "\n")
    }

    /// One rule a merchant's backend is held to (a finding's rule).
    static func describe(_ rule: MerchantRule) -> String {
        let how = rule.check == nil ? "found by the mock while it serves the request" : "checked on every request of the backend"
        return """
            \(rule.rule.id)  \(rule.rule.severity.rawValue) · \(how)
              \(rule.rule.title)
              \(rule.rule.explanation)
              source: \(rule.rule.source)
            """
    }

    /// One catalog entry.
    static func describe(_ entry: ErrorCatalog.Entry, provider: String) -> String {
        let http = entry.httpStatus.map { "HTTP \($0) · " } ?? ""
        return """
            \(provider) error \(entry.code)  class \(entry.errorClass.rawValue) (\(entry.errorClass.meaning))
              \(entry.message)
              \(http)\(Citation.forReaders(entry.source, provider: provider))
            """
    }

    /// One mapping row; `asked` is the state as typed when a generic row answers it.
    static func describe(_ rule: OutcomeMapping.Rule, provider: String, asked: String? = nil) -> String {
        let via = asked.map { " (\($0) has no row of its own; the row for \(rule.key) applies)" } ?? ""
        return """
            \(provider) state \(rule.key)  → \(rule.outcome.rawValue)\(via)
              \(Citation.withoutSections(rule.note))
            """
    }

    /// Every entry and row of a provider.
    static func listing(_ provider: any Provider) -> String {
        var lines = ["\(provider.id) error catalog"]
        for entry in provider.errorCatalog.entries {
            lines.append(
                "  \(entry.code.padding(toLength: 26, withPad: " ", startingAt: 0)) \(entry.errorClass.rawValue)  \((entry.httpStatus.map(String.init) ?? "–").padding(toLength: 3, withPad: " ", startingAt: 0))  \(entry.message)"
            )
        }
        lines.append("\(provider.id) outcome mapping")
        for rule in provider.outcomeMapping.rules {
            lines.append(
                "  \(rule.key.padding(toLength: 26, withPad: " ", startingAt: 0)) → \(rule.outcome.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(Citation.withoutSections(rule.note))"
            )
        }
        lines.append("\(provider.id) operations (call:; 'paycheck explain \(provider.id).OPERATION' for the parameters)")
        for operation in provider.operations {
            lines.append(
                "  \(operation.name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(operation.method.padding(toLength: 6, withPad: " ", startingAt: 0)) \(operation.path)")
        }
        if !provider.controlActions.isEmpty {
            lines.append("\(provider.id) payer and mock actions")
            for action in provider.controlActions {
                lines.append("  \("\(action.kind.rawValue): \(action.name)".padding(toLength: 26, withPad: " ", startingAt: 0)) \(action.parameters.joined(separator: ", "))")
            }
        }
        if !provider.merchantRules.isEmpty {
            lines.append("\(provider.id) rules for a merchant's backend (findings)")
            for rule in provider.merchantRules {
                lines.append(
                    "  \(rule.rule.id.padding(toLength: 36, withPad: " ", startingAt: 0)) \(rule.rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.rule.title)"
                )
            }
        }
        return lines.joined(separator: "\n")
    }
}
