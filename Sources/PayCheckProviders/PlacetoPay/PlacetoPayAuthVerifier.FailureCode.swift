extension PlacetoPayAuthVerifier {
    /// The authentication failure codes of providers.md §1.3 that the verifier can produce.
    ///
    /// The live API answers HTTP 401 with
    /// `{"status":{"status":"FAILED","reason":401,"message":"Authentication failed <code>","date":…}}`.
    /// Codes 107, 200 and 10001 concern SOAP/WSSE or support and are not produced here.
    package enum FailureCode: Int, Sendable, Hashable, Codable, CaseIterable {
        /// 100: UsernameToken not provided, or malformed (missing field, nonce not Base64, seed unreadable).
        case malformed = 100
        /// 101: the login does not exist in this environment.
        case unknownLogin = 101
        /// 102: the tranKey does not match (also the default code for a replayed nonce).
        case tranKeyMismatch = 102
        /// 103: the seed differs from server time by more than the tolerance.
        case seedOutOfWindow = 103
        /// 104: inactive site.
        case inactiveSite = 104
        /// 105: expired site.
        case expiredSite = 105
        /// 106: expired credentials.
        case expiredCredentials = 106

        /// The `status.message` text for `locale` (e.g. `es_CO`): Spanish for `es…`, English otherwise.
        ///
        /// English `Authentication failed 102` is the OpenAPI example; Spanish `Autenticación fallida 102` is what
        /// integrations and the PHP SDK's tests assert (providers.md §1.3).
        package func message(locale: String?) -> String {
            if let locale, locale.lowercased().hasPrefix("es") {
                return "Autenticación fallida \(rawValue)"
            }
            return "Authentication failed \(rawValue)"
        }
    }
}
