/// A mistake the shop can be told to make (`SHOP_BUG`), for mutation tests of PayCheck's packs.
enum ShopBug: String, Sendable, CaseIterable {
    /// PlacetoPay: one raw nonce for the whole process, a fresh seed per request (the second call fails auth).
    case reuseNonce = "reuse-nonce"
    /// `GET /return/<id>` marks the order paid without asking the provider.
    case trustReturn = "trust-return"
    /// PlacetoPay and khipu notifications are not verified and their body status is taken as the truth; any Mollie
    /// webhook for a known id marks the order paid without re-fetching.
    case noSignatureCheck = "no-signature-check"
    /// Every paid notification fulfils again.
    case doubleFulfil = "double-fulfil"
    /// A failed or declined payment is taken as paid (a status mapping that treats every final answer as success).
    case declinePaid = "decline-paid"
    /// A pending payment (Mollie `pending`/`authorized`, PlacetoPay `PENDING`, khipu `verifying`) is taken as paid.
    case pendingPaid = "pending-paid"
    /// An expired payment is never noticed: the order stays open.
    case ignoreExpiry = "ignore-expiry"
    /// The payment is created for one major unit more than the order's amount (a fee added twice).
    case otherAmount = "other-amount"
    /// Mollie payments are created without an Idempotency-Key, and the create is still retried once when Mollie
    /// does not answer: a lost answer makes a second payment. (Yuno refuses a create without its key.)
    case noIdempotencyKey = "no-idempotency-key"
    /// A Yuno webhook whose signature verifies is taken at its word, status included, even for an order that is
    /// already final: a late or out-of-order webhook moves a paid order back.
    case paidMovedBack = "paid-moved-back"
    /// The payment is created for the order's major units only (`10.50` → `10.00`): amounts kept as whole units.
    case dropCents = "drop-cents"
    /// A Mollie `authorized` payment (reserved, not captured) is taken as paid.
    case authorizedPaid = "authorized-paid"
    /// A khipu `done` payment is taken as paid whatever its `status_detail` (`rejected-by-payer` included).
    case ignoreStatusDetail = "ignore-status-detail"
    /// The shop never asks for notifications: Mollie creates without `webhookUrl`, khipu ones without `notify_url`,
    /// no Yuno webhook registered. A premise every notification scenario needs, missing.
    case noNotifications = "no-notifications"
    /// Every provider call carries a mobile app's User-Agent, as when the app calls the provider itself with keys it
    /// should not hold.
    case appCallsProvider = "app-calls-provider"
    /// A create retried after no answer gets a new idempotency key (Mollie: a second payment; Yuno: the spent token
    /// refused while Yuno holds the first payment).
    case newIdempotencyKey = "new-idempotency-key"
    /// Mollie payments are created without a `redirectUrl`.
    case noRedirectURL = "no-redirect-url"
    /// PlacetoPay sessions are created without the payer's `ipAddress` and `userAgent`.
    case noClientInfo = "no-client-info"
    /// PlacetoPay sessions expire 2 minutes after they are created (PlacetoPay takes 5 or more).
    case shortExpiration = "short-expiration"
    /// Yuno payments are created without the checkout session the SDK's token belongs to.
    case noCheckoutSession = "no-checkout-session"
    /// Yuno amounts are sent as text ("52000.50") instead of a number.
    case amountAsText = "amount-as-text"
    /// MIT link requests carry their `<P>` document in clear instead of encrypted.
    case plainMIT = "plain-mit"
    /// MIT link requests are all encrypted under one IV.
    case reuseIV = "reuse-iv"
    /// The payer's return URLs (Mollie `redirectUrl`, PlacetoPay `returnUrl`, khipu `return_url`/`cancel_url`, Yuno
    /// `callback_url`) on a plain-http public host.
    case publicHTTP = "public-http"
    /// Mollie amounts are sent as a number (10.5) instead of a string with the currency's decimals.
    case amountAsNumber = "amount-as-number"
    /// The Mollie key is sent as a live one (`live_…`) to the test environment.
    case liveKey = "live-key"
    /// PlacetoPay's seed lags 10 minutes behind the clock.
    case staleSeed = "stale-seed"
    /// PlacetoPay's tranKey is the legacy SHA-1 one.
    case sha1TranKey = "sha1-trankey"
    /// PlacetoPay sessions are created without `payment.reference`.
    case noReference = "no-reference"
    /// khipu payments ask for a notification without `notify_api_version: "3.0"`.
    case noNotifyVersion = "no-notify-version"
    /// khipu payments are created without `transaction_id`.
    case noTransactionID = "no-transaction-id"
    /// Yuno sessions and payments are made for Mexico with the order's (Colombian) currency.
    case wrongCountry = "wrong-country"
    /// MIT amounts drop their trailing zeros (`100.5`).
    case mitAmountFormat = "mit-amount-format"
    /// Every MIT link names one fixed reference instead of the order's.
    case reuseReference = "reuse-reference"
    /// khipu CLP amounts go through a floating conversion that leaves decimals (5000 → 5000.5).
    case clpDecimals = "clp-decimals"
}
