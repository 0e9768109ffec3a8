import PayCheckCore
import PayCheckProviders
import Synchronization

/// The findings on the merchant request being handled: a provider mock reports what it sees from its own state
/// (a reused nonce in its ledger) with ``report(_:_:)``; ``MockMiddleware`` adds the provider's stateless
/// ``MerchantRule`` checks and keeps them all with the request in the journal.
final class MerchantFindings: Sendable {
    /// The sink of the merchant request being handled; `nil` for every other request, so reports are dropped.
    @TaskLocal static var current: MerchantFindings?

    /// The reports so far.
    private let reports = Mutex<[(rule: FindingRule, message: String)]>([])

    /// Reports a breach of `rule` on the current request (ignored outside a merchant's request).
    static func report(_ rule: FindingRule, _ message: String) {
        self.current?.reports.withLock { $0.append((rule, message)) }
    }

    /// The findings on `request` (numbered `sequence`): the reported ones, then the stateless checks of the rules of
    /// the provider serving it.
    func findings(on request: MerchantRequest, provider: (any Provider)?, label: String, sequence: Int) -> [Finding] {
        var found = self.reports.withLock { $0 }.map { Finding(rule: $0.rule, message: $0.message, request: label, sequence: sequence) }
        for rule in provider?.merchantRules ?? [] {
            for message in rule.check?(request) ?? [] {
                found.append(Finding(rule: rule.rule, message: message, request: label, sequence: sequence))
            }
        }
        return found
    }
}
