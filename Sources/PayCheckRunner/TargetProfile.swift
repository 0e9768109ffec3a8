import Foundation
package import PayCheckCore
package import PayCheckProviders
import Yams

/// A target profile: `paycheck.yaml` in the working folder, or the file `--profile` names. It names live targets,
/// each with per-provider base URLs, credentials as `${ENV_VAR}` references, time limits, rate limits, concurrency,
/// and the TLS of the run's client:
///
/// ```yaml
/// targets:
///   staging:
///     timeout: 20s
///     tls: { ca: certs/ca.pem, certificate: certs/client.pem, key: certs/client-key.pem }
///     retry: { attempts: 3, backoff: 500ms, cap: 10s }
///     providers:
///       placetopay:
///         baseURL: https://checkout-test.placetopay.com
///         credentials: { login: ${PTP_LOGIN}, secretKey: ${PTP_SECRET_KEY} }
///         timeout: 30s
///         rateLimit: 5/s
///         concurrency: 4
///         tls: { ca: certs/ptp-ca.pem }   # this provider's own TLS, instead of the target's
/// ```
///
/// A secret credential written literally is an error (it would be committed with the file); relative TLS paths are
/// resolved against the profile's folder. A target named `sandbox` replaces the built-in one; `mock` is reserved.
package struct TargetProfile: Sendable {
    /// The default file looked for in the working folder.
    package static let defaultFile = "paycheck.yaml"

    /// The file read.
    package var file: String
    /// Its targets, in file order.
    package var targets: [LiveTarget]

    /// The target named `name`, if the profile has it.
    package func target(_ name: String) -> LiveTarget? { targets.first { $0.name == name } }

    /// What reading a profile gives: the profile when it is valid, every problem, and the file's text to quote in
    /// them — with each secret written in it masked, so a diagnostic never prints one.
    package struct Loaded: Sendable {
        /// The profile, when it has no error.
        package var profile: TargetProfile?
        /// Every problem, with file:line:column.
        package var diagnostics: [Diagnostic]
        /// The file's text, literal secrets masked; `nil` when it could not be read.
        package var source: String?
    }

    /// Reads and checks the profile at `path`.
    package static func load(_ path: String, providers: ProviderRegistry) -> Loaded {
        guard let data = FileManager.default.contents(atPath: path) else {
            return Loaded(profile: nil, diagnostics: [Diagnostic(at: nil, "cannot read the target profile '\(path)'")], source: nil)
        }
        return parse(String(decoding: data, as: UTF8.self), file: path, providers: providers, readingFiles: true)
    }

    /// Parses a profile's text; with `readingFiles`, the files it names (TLS) are read as a run reads them.
    package static func parse(_ text: String, file: String, providers: ProviderRegistry, readingFiles: Bool = false) -> Loaded {
        var parser = Parser(file: file, providers: providers)
        parser.readsFiles = readingFiles
        let start = SourceLocation(file: file, line: 1, column: 1)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            let location = parser.location(of: error)
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(location.line - 1).first ?? ""
            // `${` starts a flow mapping's `{`: in `{ key: ${NAME} }` the reference must be quoted.
            let hint = line.contains("${") ? "in a flow mapping { … }, quote a reference: \"${NAME}\"" : nil
            return Loaded(profile: nil, diagnostics: [Diagnostic(at: location, "the target profile is not valid YAML: \(parser.reason(error))", hint: hint)], source: text)
        } catch {
            return Loaded(profile: nil, diagnostics: [Diagnostic(at: start, "the target profile is not valid YAML: \(error)")], source: text)
        }
        guard let root else {
            return Loaded(profile: nil, diagnostics: [Diagnostic(at: start, "the target profile is empty; it needs 'targets:'")], source: text)
        }
        let targets = parser.profile(root)
        var source = text
        for secret in parser.writtenSecrets { source = source.replacingOccurrences(of: secret, with: String(repeating: "•", count: 8)) }
        return Loaded(profile: parser.diagnostics.hasErrors ? nil : TargetProfile(file: file, targets: targets), diagnostics: parser.diagnostics, source: source)
    }

    /// Walks a profile's nodes; Yams nodes never leave it.
    private struct Parser {
        let file: String
        let providers: ProviderRegistry
        var diagnostics: [Diagnostic] = []
        /// Secrets written in the file: masked wherever the file is quoted.
        var writtenSecrets: [String] = []
        /// Whether the files the profile names are read (a profile loaded from disk), or only their paths resolved.
        var readsFiles = false

        init(file: String, providers: ProviderRegistry) {
            self.file = file
            self.providers = providers
        }

        func location(_ node: Node) -> SourceLocation {
            SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
        }

        func location(of error: YamlError) -> SourceLocation {
            switch error {
            case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
                SourceLocation(file: file, line: mark.line, column: mark.column)
            default: SourceLocation(file: file, line: 1, column: 1)
            }
        }

        func reason(_ error: YamlError) -> String {
            switch error {
            case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): problem
            default: "\(error)"
            }
        }

        mutating func error(_ node: Node, _ message: String, hint: String? = nil) {
            diagnostics.append(Diagnostic(at: location(node), message, hint: hint))
        }

        /// The mapping's pairs by key, each key checked against `allowed` (an unknown key is an error with a suggestion).
        mutating func members(_ node: Node, of what: String, allowed: [String]) -> [(key: String, keyNode: Node, value: Node)] {
            guard let mapping = node.mapping else {
                error(node, "\(what) must be a mapping")
                return []
            }
            var result: [(key: String, keyNode: Node, value: Node)] = []
            for (key, value) in mapping {
                guard let name = key.scalar?.string else { error(key, "a key of \(what) must be text"); continue }
                if !allowed.isEmpty, !allowed.contains(name) {
                    let hint = Suggest.nearest(name, in: allowed).map { "did you mean '\($0)'?" } ?? "known keys: \(allowed.joined(separator: ", "))"
                    error(key, "unknown key '\(name)' in \(what)", hint: hint)
                    continue
                }
                result.append((name, key, value))
            }
            return result
        }

        mutating func text(_ node: Node, _ what: String) -> String? {
            guard let scalar = node.scalar, !scalar.string.isEmpty else { error(node, "\(what) must be text"); return nil }
            return scalar.string
        }

        mutating func duration(_ node: Node, _ what: String) -> Double? {
            guard let text = text(node, what) else { return nil }
            do throws(DurationError) {
                return try DurationText.parsePositive(text)
            } catch {
                self.error(node, "\(what) must be a positive duration like 30s or 500ms, got '\(text)'")
                return nil
            }
        }

        mutating func positive(_ node: Node, _ what: String) -> Int? {
            guard let text = text(node, what) else { return nil }
            guard let value = Int(text), value >= 1, value <= 10_000 else {
                error(node, "\(what) must be a whole number from 1 to 10000, got '\(text)'")
                return nil
            }
            return value
        }

        mutating func profile(_ root: Node) -> [LiveTarget] {
            var targets: [LiveTarget] = []
            for member in members(root, of: "the target profile", allowed: ["targets"]) {
                for target in members(member.value, of: "'targets'", allowed: []) {
                    if target.key == "mock" || target.key.hasPrefix("url=") {
                        error(target.keyNode, "'\(target.key)' is a built-in target and cannot be redefined", hint: "give the target another name")
                        continue
                    }
                    guard target.key.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                        error(target.keyNode, "a target name is letters, digits and '-_.', got '\(target.key)'")
                        continue
                    }
                    targets.append(liveTarget(target.key, target.value))
                }
            }
            if targets.isEmpty, !diagnostics.hasErrors { error(root, "the target profile names no target under 'targets:'") }
            return targets
        }

        mutating func liveTarget(_ name: String, _ node: Node) -> LiveTarget {
            var target = LiveTarget(name: name, profile: file)
            for member in members(node, of: "target '\(name)'", allowed: ["providers", "tls", "timeout", "retry"]) {
                switch member.key {
                case "timeout": target.timeout = duration(member.value, "'timeout'")
                case "tls": target.tls = tls(member.value)
                case "retry": target.retry = retry(member.value)
                default:
                    for entry in members(member.value, of: "'providers'", allowed: []) {
                        guard let provider = providers[entry.key] else {
                            let hint =
                                Suggest.nearest(entry.key, in: providers.providerIDs).map { "did you mean '\($0)'?" }
                                ?? "providers: \(providers.providerIDs.joined(separator: ", "))"
                            error(entry.keyNode, "unknown provider '\(entry.key)'", hint: hint)
                            continue
                        }
                        target.providers[provider.id] = endpoint(entry.value, provider: provider)
                    }
                }
            }
            return target
        }

        mutating func endpoint(_ node: Node, provider: any Provider) -> LiveTarget.Endpoint {
            var endpoint = LiveTarget.Endpoint()
            let keys = ["baseURL", "credentials", "timeout", "rateLimit", "concurrency", "tls"]
            for member in members(node, of: "provider '\(provider.id)'", allowed: keys) {
                switch member.key {
                case "baseURL":
                    guard var url = text(member.value, "'baseURL'") else { continue }
                    while url.hasSuffix("/") { url.removeLast() }
                    if let problem = HTTPURLCheck.problem(url) {
                        error(member.value, "'baseURL' must be an http(s) URL: \(problem)")
                    } else {
                        endpoint.baseURL = url
                    }
                case "credentials":
                    for credential in members(member.value, of: "the credentials of '\(provider.id)'", allowed: provider.credentialFields.map(\.name)) {
                        guard let field = provider.credentialFields.first(where: { $0.name == credential.key }),
                            let value = text(credential.value, "credential '\(credential.key)'")
                        else { continue }
                        if let variable = Self.reference(value) {
                            endpoint.credentials[field.name] = .environment(variable)
                        } else if field.secret, !field.publishable {
                            // Never quote the value: it is a secret that is now in a file.
                            writtenSecrets.append(value)
                            error(
                                credential.value, "credential '\(field.name)' of '\(provider.id)' is a secret written in the profile",
                                hint: "write it as an environment variable reference, e.g. \(field.name): ${\(field.environmentVariable)}, and set the variable")
                        } else {
                            endpoint.credentials[field.name] = .literal(value)
                        }
                    }
                case "timeout": endpoint.timeout = duration(member.value, "'timeout'")
                case "concurrency": endpoint.concurrency = positive(member.value, "'concurrency'")
                case "tls": endpoint.tls = tls(member.value)
                default: endpoint.rateLimit = rateLimit(member.value)
                }
            }
            return endpoint
        }

        /// `NAME` of a value that is exactly `${NAME}`.
        static func reference(_ value: String) -> String? {
            guard value.hasPrefix("${"), value.hasSuffix("}"), value.count > 3 else { return nil }
            let name = value.dropFirst(2).dropLast()
            guard let first = name.first, first == "_" || first.isLetter,
                name.allSatisfy({ $0 == "_" || (($0.isLetter || $0.isNumber) && $0.isASCII) })
            else { return nil }
            return String(name)
        }

        mutating func rateLimit(_ node: Node) -> LiveTarget.RateLimit? {
            guard let text = text(node, "'rateLimit'") else { return nil }
            let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let periods: [String: Double] = ["s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600]
            guard parts.count == 2, let requests = Int(parts[0]), requests >= 1, let seconds = periods[parts[1]] else {
                error(node, "'rateLimit' must be requests per period like 5/s or 300/min, got '\(text)'")
                return nil
            }
            return LiveTarget.RateLimit(requests: requests, seconds: seconds)
        }

        mutating func tls(_ node: Node) -> LiveTarget.TLSOptions {
            var options = LiveTarget.TLSOptions()
            let folder = (file as NSString).deletingLastPathComponent
            for member in members(node, of: "'tls'", allowed: ["ca", "certificate", "key"]) {
                guard let path = text(member.value, "'\(member.key)'") else { continue }
                let resolved = path.hasPrefix("/") || folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
                switch member.key {
                case "ca": options.ca = resolved
                case "certificate": options.certificate = resolved
                default: options.key = resolved
                }
            }
            if (options.certificate == nil) != (options.key == nil) {
                error(node, "'tls' needs both 'certificate' and 'key' for a client certificate, or neither")
                return options
            }
            // The files are read here, as a run reads them, so lint, `paycheck targets` and run agree on them.
            guard readsFiles else { return options }
            do {
                _ = try AsyncHTTPTransport.configuration(tls: options)
            } catch {
                self.error(node, "\(error)", hint: "give PEM files (-----BEGIN CERTIFICATE----- / -----BEGIN PRIVATE KEY-----)")
            }
            return options
        }

        mutating func retry(_ node: Node) -> LiveTarget.RetryPolicy {
            var policy = LiveTarget.RetryPolicy()
            for member in members(node, of: "'retry'", allowed: ["attempts", "backoff", "cap"]) {
                switch member.key {
                case "attempts": if let n = positive(member.value, "'attempts'") { policy.attempts = min(n, 10) }
                case "backoff": if let s = duration(member.value, "'backoff'") { policy.backoff = s }
                default: if let s = duration(member.value, "'cap'") { policy.cap = s }
                }
            }
            return policy
        }
    }
}
