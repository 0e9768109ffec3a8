import PayCheckCore

extension PlacetoPayProvider {
    /// Session and transaction states → canonical outcomes (providers.md §1.5, §1.11, §6).
    ///
    /// A row with a reason wins over the row for the bare state, so `REJECTED/?C` is `canceled` while any other
    /// `REJECTED` is `declined`.
    package static let mapping: OutcomeMapping = {
        typealias S = PlacetoPayStatusName
        return OutcomeMapping([
            .init(S.approved, .succeeded, "approved, final (§1.5)"),
            .init(S.pending, .pending, "no final transaction yet, or pending at the bank (§1.5)"),
            .init(S.pendingConfirmation, .pending, "transaction awaiting the merchant's confirm/cancel (§1.4 metadata, §1.7)"),
            .init(S.approvedPartial, .pending, "partial-payment session with part paid; the payer may pay the rest (§1.5)"),
            .init(S.rejected, reason: "?C", .canceled, "canceled by the payer, or a transaction cancelled by the merchant (§1.5, §1.7)"),
            .init(S.rejected, reason: "MC", .canceled, "session cancelled by the merchant through the API (§1.6)"),
            .init(
                S.rejected, reason: "EX", .expired,
                "session expired without an approved payment; the reason code for pure expiry is undocumented (§1.13), EX is the PayCheck mock's choice"),
            .init(S.rejected, .declined, "rejected: attempt limit (XN), card or bank refusal (§1.5, §1.11)"),
            .init(S.partialExpired, .expired, "partial-payment session expired with only part paid (§1.5)"),
            .init(S.failed, .error, "request-level or processing failure; reconcile by querying (§1.3, §1.11)"),
        ])
    }()

    /// Native error codes with their classes (providers.md §1.3; classes per DESIGN.md §3).
    ///
    /// Auth codes come from the number at the end of a 401's `status.message`; every other code is `status.reason`.
    /// `BR` has two rows told apart by HTTP status: 200 (an action processed but failed, S) and 400 (a request
    /// that fails validation, P); the adapter picks the row whose status matches.
    package static let catalog = ErrorCatalog([
        .init("100", .A, "authentication not provided or malformed (UsernameToken)", httpStatus: 401, source: "providers.md §1.3"),
        .init("101", .A, "the login (site) does not exist in this environment", httpStatus: 401, source: "providers.md §1.3"),
        .init("102", .A, "the tranKey does not match (wrong secret key, tampered or replayed)", httpStatus: 401, source: "providers.md §1.3"),
        .init("103", .A, "the seed differs from server time by more than 5 minutes", httpStatus: 401, source: "providers.md §1.2, §1.3"),
        .init("104", .A, "inactive site", httpStatus: 401, source: "providers.md §1.3"),
        .init("105", .A, "expired site", httpStatus: 401, source: "providers.md §1.3"),
        .init("106", .A, "expired credentials", httpStatus: 401, source: "providers.md §1.3"),
        .init("107", .A, "bad UsernameToken definition (WSSE)", httpStatus: 401, source: "providers.md §1.3"),
        .init("200", .A, "skip SOAP authentication header", httpStatus: 401, source: "providers.md §1.3"),
        .init("10001", .A, "authentication failed: contact support", httpStatus: 401, source: "providers.md §1.3"),
        .init(
            "request_not_valid", .P, "the session does not exist, or the action is not valid for the transaction's state",
            httpStatus: 404, source: "providers.md §1.3 (404 unknown session; 400 action in the wrong state)"),
        .init("action_not_allowed", .P, "sessions that are not pending cannot be cancelled", httpStatus: 400, source: "providers.md §1.3, §1.6"),
        .init("NA", .C, "page not found: unknown route (wrong base URL or path)", httpStatus: 404, source: "providers.md §1.3"),
        .init("transaction_request_error", .P, "the transaction has already expired (confirm after expiry)", httpStatus: 400, source: "providers.md §1.3"),
        .init(
            "BR", .S, "the request could not be processed (action processed but failed, e.g. already refunded)",
            httpStatus: 200, source: "providers.md §1.3, payment.mdx"),
        .init(
            "BR", .P, "the request could not be processed: a field of the request is invalid (validation error)",
            httpStatus: 400,
            source: "providers.md §1.3, §1.13 (validation errors undocumented; HTTP 400 BR naming the field is the PayCheck mock's choice)"),
        .init(
            "unauthorized", .A, "the session does not belong to your site", httpStatus: 401,
            source: "PayCheck mock choice after the Python SDK fixture information_fails_session_not_found.json (providers.md §1.3 silent)"),
        .init("XN", .T, "the token used is invalid", source: "providers.md §1.3 (instrument APIs)"),
    ])
}

/// PlacetoPay's `status.status` (providers.md §1.3, §1.5): `OK` for a processed request, and the states of sessions and
/// transactions. The adapter's table and the mock share it.
package enum PlacetoPayStatusName: String, NativeState {
    /// A processed request (not a payment state).
    case ok = "OK"
    /// A request-level or processing failure.
    case failed = "FAILED"
    case approved = "APPROVED"
    case rejected = "REJECTED"
    case pending = "PENDING"
    /// A transaction awaiting the merchant's `confirm` / `cancel`.
    case pendingConfirmation = "PENDING_CONFIRMATION"
    /// A partial-payment session with part paid.
    case approvedPartial = "APPROVED_PARTIAL"
    /// A partial-payment session that expired partly paid.
    case partialExpired = "PARTIAL_EXPIRED"

    /// The states a session or transaction can be in (every value but `OK`).
    package static var paymentStates: [Self] { allCases.filter { $0 != .ok } }
}
