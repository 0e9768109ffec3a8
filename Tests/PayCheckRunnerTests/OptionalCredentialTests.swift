import Foundation
import PayCheckCore
import PayCheckProviders
import PayCheckRunner
import Testing

/// `CredentialField.required`: an optional credential (MIT's Suite mCommerce values) is used when set and changes
/// nothing about skipping or "partly configured" when absent.
@Suite("Optional sandbox credentials")
struct OptionalCredentialTests {
    static let required = [
        "PAYCHECK_MIT_ID_COMPANY": "SNBX", "PAYCHECK_MIT_ID_BRANCH": "01SNBXBRNCH", "PAYCHECK_MIT_USER": "SNBXUSR01",
        "PAYCHECK_MIT_PASSWORD": "SECRETO", "PAYCHECK_MIT_DATA0": "SNDBX123", "PAYCHECK_MIT_KEY": "5DCC67393750523CD165F17E1EFADD21",
    ]

    func runner(_ environment: [String: String]) -> Runner {
        var configuration = RunConfiguration()
        configuration.target = .sandbox
        configuration.environment = environment
        return Runner(configuration: configuration, providers: ProviderRegistry([MITProvider()]), transport: RefusingTransport())
    }

    @Test("the required fields alone make the provider configured; optional ones are read when set")
    func requiredOnly() {
        let runner = runner(Self.required)
        #expect(runner.hasCredentials("mit"))
        #expect(runner.partialCredentials(for: ["mit"]).isEmpty)
        #expect(runner.credentials(for: MITProvider())["authKey"] == nil)
        let full = self.runner(Self.required.merging(["PAYCHECK_MIT_AUTH_KEY": "a-3ds-key", "PAYCHECK_MIT_MCOMMERCE_URL": "https://mc.test"]) { $1 })
        #expect(full.credentials(for: MITProvider())["authKey"] == "a-3ds-key")
        #expect(full.credentials(for: MITProvider())["mcommerceURL"] == "https://mc.test")
    }

    @Test("an optional field alone neither configures the provider nor makes it partly configured")
    func optionalOnly() {
        let runner = runner(["PAYCHECK_MIT_AUTH_KEY": "a-3ds-key"])
        #expect(!runner.hasCredentials("mit"))
        #expect(runner.partialCredentials(for: ["mit"]).isEmpty)
        let partial = self.runner(["PAYCHECK_MIT_KEY": "5DCC67393750523CD165F17E1EFADD21"]).partialCredentials(for: ["mit"])
        #expect(partial.count == 1 && !(partial.first ?? "").contains("AUTH_KEY") && (partial.first ?? "").contains("PAYCHECK_MIT_DATA0"))
    }
}
