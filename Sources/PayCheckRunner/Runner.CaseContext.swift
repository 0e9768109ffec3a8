import Foundation
import PayCheckProviders

extension Runner {
    /// What every case of one run shares: where to send control requests, the base redactor, the deadline,
    /// the fail-fast flag, the run's warnings and the event sink.
    struct CaseContext: Sendable {
        /// The mock host's base URL for `mock`/`url` targets.
        var controlURL: String?
        /// Redacts the run's base secrets (each case adds its own).
        var redactor: Redactor
        /// When the run timeout passes, on the runner's clock.
        var deadline: Date?
        /// Set by `--fail-fast` after the first failure.
        var stop: StopFlag
        /// Collects warnings for the result.
        var warnings: WarningLog
        /// Receives live events.
        var onEvent: @Sendable (RunEvent) -> Void
        /// On a live target, each provider's transport (``LiveTransport``): its limits, retries and reachability.
        var providerTransports: [String: any HTTPTransport] = [:]
        /// The merchant's backend `merchant:` steps reach, when the session started one.
        var merchant: MerchantTarget?
    }

    /// One warning for each secret too short to be redacted (see ``Redactor/minimumSecretLength``): a `--secret`
    /// value or a secret provider credential.
    func shortSecretWarnings() -> [String] {
        let note = "is shorter than \(Redactor.minimumSecretLength) characters and cannot be redacted safely: it may appear in clear in the output and reports"
        var warnings = configuration.secrets.keys.sorted().filter { Redactor.isTooShort(configuration.secrets[$0] ?? "") }
            .map { "secret '\($0)' \(note)" }
        for provider in providers.all {
            let creds = credentials(for: provider)
            for field in provider.credentialFields where field.secret && Redactor.isTooShort(creds[field.name] ?? "") {
                warnings.append("the \(provider.id) credential '\(field.name)' (\(field.environmentVariable)) \(note)")
            }
        }
        return warnings
    }
}
