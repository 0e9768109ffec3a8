package import PayCheckCore

/// The `payer:` and provider `mock:` actions of PlacetoPay, posted as JSON to the mock's control API at
/// `/__paycheck/placetopay/<kind>/<name>` by the shared executor. The PlacetoPay mock serves a handler for each
/// of these declarations; they need a mock target (`requires: [mock]`).
///
/// | Step | What the mock does |
/// |---|---|
/// | `payer: pay` `{requestId, card, expiry?, cvv?, otp?, amount?}` | the payer pays on the checkout page |
/// | `payer: cancel` `{requestId}` | the payer's "I don't want to continue": `REJECTED/?C` |
/// | `payer: abandon` `{requestId}` | the payer closes the page; the session stays pending |
/// | `mock: site` `{login, secretKey, status, notificationUrl, acceptsSHA1, notificationAlgorithm, locale, notificationRetries, settlementDelay, allowConfirmationFlow, maxAmountDigits}` | creates or changes a site |
/// | `mock: notifications` `{requestId?}` | the notification delivery log |
/// | `mock: notify` `{requestId, url?}` | re-sends the final-state notification |
///
/// A successful `payer:` answer also carries the outcome of what the payer did: the attempt's
/// `transaction.status` (a Transaction object of §1.5), or the `session` status when no transaction was made.
package enum PlacetoPayControlAction {
    /// Every action.
    package static let all: [ControlAction] = [
        ControlAction(.payer, "pay", parameters: ["requestId", "card", "expiry", "cvv", "otp", "amount"], required: ["requestId"]),
        ControlAction(.payer, "cancel", parameters: ["requestId"], required: ["requestId"]),
        ControlAction(.payer, "abandon", parameters: ["requestId"], required: ["requestId"]),
        ControlAction(
            .mock, "site",
            parameters: [
                "login", "secretKey", "status", "notificationUrl", "acceptsSHA1", "notificationAlgorithm", "locale",
                "notificationRetries", "settlementDelay", "allowConfirmationFlow", "maxAmountDigits",
            ],
            required: ["login"]),
        ControlAction(.mock, "notifications", parameters: ["requestId"]),
        ControlAction(.mock, "notify", parameters: ["requestId", "url"], required: ["requestId"], delivers: true),
        // A notification for the session claiming `status`, signed without the site's secret key: what someone who
        // knows the notification URL, but not the key, can send (§1.9: the merchant must check the signature).
        ControlAction(.mock, "forge", parameters: ["requestId", "status", "url"], required: ["requestId", "status"], delivers: true),
    ]

    /// The `with:` keys of one action (the mock validates request bodies against the same list).
    package static func parameters(_ kind: ProviderAction.Kind, _ name: String) -> [String] {
        all.first { $0.kind == kind && $0.name == name }?.parameters ?? []
    }
}
