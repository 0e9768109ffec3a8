import PayCheckCommands
import PayCheckMock
import PayCheckProviders
import Testing

@Suite("explain")
struct ExplanationTests {
    /// The text `paycheck explain CODE [--provider P]` prints.
    func explain(_ code: String?, provider: String? = nil) throws(Explanation.NotFound) -> String {
        try Explanation.text(for: code, in: MockRegistry.providers.all.filter { provider == nil || $0.id == provider }, provider: provider)
    }

    @Test("explain prints a catalog entry or a state's mapping, and suggests the nearest code")
    func codesAndStates() throws {
        let code = try explain("102")
        #expect(code.contains("placetopay error 102") && code.contains("class A"))
        #expect(try explain("REJECTED/MC", provider: "placetopay").contains("canceled"))
        #expect(try explain("rejected/mc", provider: "placetopay").contains("canceled"), "case-insensitively when nothing matches exactly")
        #expect(try explain("REJECTED/XN", provider: "placetopay").contains("REJECTED/XN has no row of its own"))
        #expect(
            performing: { try explain("10x", provider: "placetopay") },
            throws: { error in
                "\(error)" == "no 'placetopay' error code, native state, operation, action or rule '10x'; did you mean '100'?"
            })
        let mit = try explain("T013")
        #expect(
            mit.contains("mit error T013") && mit.contains("class T")
                && mit.contains("La tarjeta proporcionada no corresponde con el token / Provided card does not match with the token"))
    }

    @Test("explain OPERATION lists each provider's method, path, with: parameters and their members, idempotency key and auth: overrides; explain an action its with: keys")
    func operationsAndActions() throws {
        let mollie = try explain("mollie.createPayment")
        #expect(mollie.contains("mollie createPayment — POST /v2/payments"), "\(mollie)")
        #expect(mollie.contains("amount") && mollie.contains("      value: text (required)"), "\(mollie)")
        // A shaped parameter's members at every depth: the golden case Tests/Cases/explain-operation (placetopay.createSession).
        #expect(mollie.contains("idempotencyKey") && mollie.contains("header Idempotency-Key"))
        #expect(mollie.contains("auth: overrides") && !mollie.contains("khipu createPayment"))
        let every = try explain("createPayment")
        #expect(["khipu", "mollie", "yuno"].allSatisfy { every.contains("\($0) createPayment — POST") }, "\(every)")
        let action = try explain("payer:pay", provider: "placetopay")
        #expect(action.contains("placetopay payer: pay") && action.contains("requestId (required)"))
        let fault = try explain("mock:fault")
        #expect(fault.contains("lost") && fault.contains("delay (delayMs, jitterMs)"))
        #expect(performing: { try explain("createPaymnet") }, throws: { "\($0)".hasSuffix("did you mean 'createPayment'?") })
    }

    @Test("a merchant rule prints what it checks, its severity and its source; a provider alone lists everything it has")
    func rulesAndListing() throws {
        let rule = try explain("PLACETOPAY.NONCE-REUSED")
        #expect(rule.hasPrefix("placetopay.nonce-reused  ") && rule.contains("source: "))
        let listing = try explain(nil, provider: "mollie")
        for heading in ["mollie error catalog", "mollie outcome mapping", "mollie operations", "mollie payer and mock actions", "mollie rules for a merchant's backend"] {
            #expect(listing.contains(heading), "\(heading)")
        }
        #expect(!listing.contains("placetopay"))
    }

    @Test("citations point at files in the repository or public documents, never at notes the repository lacks")
    func citations() throws {
        for topic in ["placetopay.nonce-reused", "mollie.missing-idempotency-key", "102", "INVALID_CREDENTIALS", "T013"] {
            let text = try explain(topic)
            #expect(!text.contains("providers.md") && !text.contains("DESIGN.md"), "\(topic): \(text)")
        }
    }
}
