import ArgumentParser
import PayCheckCommands
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import Foundation

/// `paycheck explain <code>`: what a provider error code (or native state) means, from the providers' catalogs.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a provider error code, native state, operation, action or merchant rule (e.g. 102, REJECTED/?C, createPayment, payer:pay, placetopay.nonce-reused).",
        discussion: HelpText.reflow(
            """
            Prints the error-catalog entry of every provider that has the code: its class
            (C configuration · S service · P payment request · A authentication · T token), meaning,
            HTTP status and source. A native state such as APPROVED or REJECTED/MC prints its row of
            the provider's outcome mapping. A rule id such as placetopay.nonce-reused (a finding on a
            merchant's backend) prints what the rule checks, why it matters and its source. An
            operation such as createPayment (or mollie.createPayment) prints, for each provider that
            has it, its method and path, every with: parameter (where it goes, whether it is required,
            its default and the kind of value it takes, and the members of a mapping at every depth, from
            the provider's docs), the idempotency key and the auth: overrides.
            An action such as payer:pay or mock:fault prints its with: parameters. With --provider and
            no code, lists that provider's catalog, mapping, operations, actions and rules.
            """))

    @Argument(help: "The error code, native state, operation, action or rule, verbatim (codes are matched exactly, then case-insensitively).")
    var code: String?

    @Option(name: .long, help: "Only this provider (e.g. placetopay).")
    var provider: String?

    func validate() throws {
        if code == nil, provider == nil {
            throw ValidationError("give a code to explain (e.g. 'paycheck explain 102'), or --provider to list a provider's codes")
        }
        if let provider, MockRegistry.providers[provider] == nil {
            let known = MockRegistry.providers.providerIDs
            let hint = Suggest.nearest(provider, in: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw ValidationError("unknown provider '\(provider)'\(hint); known: \(known.joined(separator: ", "))")
        }
    }

    func run() throws {
        let output = Output()
        let providers = MockRegistry.providers.all.filter { provider == nil || $0.id == provider }
        do {
            output.out(try Explanation.text(for: code, in: providers, provider: provider))
        } catch {
            output.err("error: \(error)")
            throw ExitCode(2)
        }
    }
}
