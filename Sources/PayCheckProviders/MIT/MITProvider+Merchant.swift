import PayCheckCore

extension MITProvider {
    /// A backend the run starts gets a merchant site of its own (§6.1: the response URL is configured with MIT, not
    /// sent in the link): a `data0` derived from the run's clock scope, whose results go to the contract's
    /// `notificationUrl`; the company, branch, user, password and key stay the sandbox merchant's.
    /// Used: the response URL is the site's setting.
    package var contractNotificationURLUnused: String? { nil }

    package func merchantAccount(scope: String, notificationURL: String?, secret: String) -> MerchantAccount {
        let data0 = "M" + String(StableDigest.of([scope]).prefix(16)).uppercased()
        var site: [String: Value] = ["data0": .string(data0)]
        if let notificationURL { site["responseUrl"] = .string(notificationURL) }
        var credentials = mockCredentials
        credentials["data0"] = data0
        return MerchantAccount(
            credentials: credentials, setup: ProviderActionRequest(kind: .mock, name: "site", parameters: .object(site), auth: nil))
    }
}
