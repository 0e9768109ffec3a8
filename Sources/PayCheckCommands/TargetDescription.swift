import Foundation
import PayCheckCore
package import PayCheckProviders
package import PayCheckRunner

/// What `paycheck targets` prints for each target: its base URLs, where each credential comes from and whether it
/// is set (never its value), its limits and TLS files.
package enum TargetDescription {
    /// The lines of one target.
    package static func describe(_ target: Target, providers: ProviderRegistry, environment: [String: String]) -> String {
        switch target {
        case .mock:
            return "mock (built-in, the default): the embedded mock of every provider on 127.0.0.1, with its test credentials"
        case .url(let base):
            return "\(target): a standalone mock at \(base), with the mock's test credentials"
        case .live(let live):
            var lines = ["\(live.name) (\(live.profile ?? "built-in")): live, through each provider's own signing; no control API, so cases that require the mock are skipped"]
            var settings: [String] = []
            if let timeout = live.timeout { settings.append("time limit \(DurationText.format(timeout)) per exchange") }
            settings.append(
                "retries of service failures: \(live.retry.attempts) attempts, backoff \(DurationText.format(live.retry.backoff)) doubling, cap \(DurationText.format(live.retry.cap))"
            )
            lines.append("  " + settings.joined(separator: " · "))
            if !live.tls.isDefault { lines.append("  TLS: " + Self.describe(live.tls)) }
            var missingAll: [String] = []
            for provider in providers.all {
                guard live.includes(provider) else {
                    lines.append("  \(provider.id): not part of target '\(live.name)' (the profile does not name it; its cases are skipped)")
                    continue
                }
                let values = live.credentials(for: provider, environment: environment)
                let required = provider.credentialFields.filter(\.required)
                let set = required.filter { values[$0.name] != nil }.count
                let state = set == required.count ? "ready" : set == 0 ? "skipped: no credential set" : "PARTLY CONFIGURED: a run refuses it"
                var limits: [String] = []
                let endpoint = live.providers[provider.id]
                if let timeout = endpoint?.timeout { limits.append("time limit \(DurationText.format(timeout))") }
                if let rate = endpoint?.rateLimit { limits.append("rate limit \(rate)") }
                if let concurrency = endpoint?.concurrency { limits.append("at most \(concurrency) at once") }
                lines.append("  \(provider.id): \(live.baseURL(for: provider)) — \(state)" + (limits.isEmpty ? "" : " · " + limits.joined(separator: " · ")))
                if let tls = endpoint?.tls { lines.append("    TLS of its own: " + Self.describe(tls)) }
                for field in provider.credentialFields {
                    let source = live.source(of: field, for: provider)
                    let value: String
                    switch (values[field.name], source) {
                    case (nil, _):
                        value = field.required ? "MISSING" : "not set (optional)"
                        if field.required, let variable = live.variable(of: field, for: provider) { missingAll.append(variable) }
                    case (_, .literal(let literal)):
                        // A published key (Yuno's public one) may be written in the profile, and is still never shown.
                        value = field.secret ? "set (published, \(literal.count) characters, written in the profile)" : "\(literal) (written in the profile)"
                    case (let set?, .environment): value = field.secret ? "set (secret, \(set.count) characters)" : "set: \(set)"
                    }
                    let from = if case .environment = source { "\(source)" } else { "profile" }
                    lines.append("    \(field.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(from.padding(toLength: 40, withPad: " ", startingAt: 0)) \(value)")
                }
            }
            lines.append(missingAll.isEmpty ? "  every required credential is set" : "  missing: " + missingAll.joined(separator: ", "))
            return lines.joined(separator: "\n")
        }
    }

    /// A target's or a provider's TLS files, each marked when it cannot be read.
    static func describe(_ options: LiveTarget.TLSOptions) -> String {
        var parts: [String] = []
        if let ca = options.ca { parts.append("CA bundle \(ca)" + (FileManager.default.isReadableFile(atPath: ca) ? "" : " (MISSING)")) }
        if let certificate = options.certificate, let key = options.key {
            let missing = [certificate, key].filter { !FileManager.default.isReadableFile(atPath: $0) }
            parts.append("client certificate \(certificate), key \(key)" + (missing.isEmpty ? "" : " (MISSING: \(missing.joined(separator: ", ")))"))
        }
        return parts.isEmpty ? "the system's trust store" : parts.joined(separator: " · ")
    }
}
