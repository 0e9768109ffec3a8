import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// PlacetoPay's checkout at the process URL (§1.4, §1.6, §1.10): the session, a choice of documented test cards, "Pay"
/// and "Cancel". A payment goes through the same attempt as `payer: pay`, a cancel as `payer: cancel`, with the same
/// notification. The payer then goes back to the merchant's `returnUrl` (`cancelUrl`, when given, after a cancel);
/// a rejected card leaves the session open, so the page shows the rejection and lets the payer try another card.
struct PlacetoPayCheckoutPage: Sendable {
    /// The shared state and environment.
    let context: PlacetoPayContext

    /// The cards the page offers, from the documented test cards (§1.10, ``PlacetoPayTestCard``).
    static let cards: [PayerPage.Choice] = [
        .init(value: "4110760000000081", label: "Visa 4110 7600 0000 0081 — approved"),
        .init(value: "4110760000000016", label: "Visa 4110 7600 0000 0016 — rejected"),
        .init(value: "4110760000000073", label: "Visa 4110 7600 0000 0073 — pending, then approved"),
        .init(value: "4048370000000037", label: "Visa 4048 3700 0000 0037 — pending, then rejected"),
    ]

    /// The page of the session, or PlacetoPay's "not found".
    func show(_ requestContext: BasicRequestContext) async throws -> Response {
        guard let session = try await self.session(requestContext) else { return Self.notFound }
        return Self.page(session)
    }

    /// "Pay" or "Cancel".
    func submit(_ request: Request, _ requestContext: BasicRequestContext) async throws -> Response {
        let fields = try await PayerPage.fields(of: request)
        guard let session = try await self.session(requestContext) else { return Self.notFound }
        guard Self.isPayable(session) else { return Self.page(session) }
        let now = context.environment.clock.now()
        let requestId = session.requestId
        do {
            if fields["action"] == "cancel" {
                _ = try await context.transact { state, outbox in try state.payerCancel(requestId, now: now, outbox: &outbox) }
                return PayerPage.back(to: Self.url("cancelUrl", session) ?? Self.url("returnUrl", session))
            }
            let card = fields["card"] ?? ""
            let attempt = try PlacetoPayPayerAttempt(json: ["requestId": .int(requestId), "card": .string(card)])
            let answer = try await context.transact { state, outbox in try state.pay(attempt, now: now, outbox: &outbox) }
            let transaction = answer["transaction"]?["status"]
            if transaction?["status"]?.stringValue == PlacetoPayStatus.Name.rejected.rawValue {
                // The session stays open for another attempt (§1.5): the payer sees why and may try again.
                let updated = context.store.withState { $0.sessions[requestId] } ?? session
                return Self.page(updated, message: transaction?["message"]?.stringValue ?? "The payment was rejected.")
            }
            return PayerPage.back(to: Self.url("returnUrl", session))
        } catch let error as MockHTTPError {
            return Self.page(session, message: error.message)
        }
    }

    /// The session the path names, evaluated now.
    private func session(_ requestContext: BasicRequestContext) async throws -> PlacetoPaySession? {
        let now = context.environment.clock.now()
        let hash = requestContext.parameters.get("hash") ?? ""
        guard let requestId = requestContext.parameters.get("requestId").flatMap({ Int($0) }) else { return nil }
        return try await context.transact { state, outbox in state.checkoutSession(requestId, hash: hash, now: now, outbox: &outbox) }
    }

    /// Whether the payer can still act: a pending session (not one the merchant cancelled, §1.6).
    private static func isPayable(_ session: PlacetoPaySession) -> Bool {
        session.status.status == PlacetoPayStatus.Name.pending && session.status.reason != PlacetoPayStatus.Reason.cancelledByMerchant
            && !session.transactions.contains { $0.status.status == PlacetoPayStatus.Name.pending }
    }

    /// The checkout of `session`: its reference and amount, and the cards while it can be paid.
    private static func page(_ session: PlacetoPaySession, message: String? = nil) -> Response {
        let facts: [(id: String, label: String, value: String)] = [
            ("reference", "Reference", session.request.reference),
            ("amount", "Amount", "\(session.request.currency) \(Value.format(session.request.total))"),
            ("status", "Status", session.status.reason == PlacetoPayStatus.Reason.cancelledByMerchant ? "not available" : session.status.status.rawValue),
        ]
        // "Back to the store" goes to the returnUrl as it is: PlacetoPay adds nothing to it (§1.4), so the merchant asks.
        let back = Self.url("returnUrl", session).map { [(id: "return", label: "Back to the store", href: $0)] } ?? []
        guard Self.isPayable(session) else {
            return PayerPage.form(
                title: "PlacetoPay checkout", facts: facts, message: message, field: "card", legend: "", choices: [], buttons: [], links: back)
        }
        return PayerPage.form(
            title: "PlacetoPay checkout", facts: facts, message: message, field: "card", legend: "Card (PlacetoPay's test cards)",
            choices: Self.cards, buttons: [("pay", "Pay"), ("cancel", "Cancel")], links: back)
    }

    /// The session's `returnUrl` or `cancelUrl`, as the merchant sent it.
    private static func url(_ key: String, _ session: PlacetoPaySession) -> String? {
        session.request.echo[key]?.stringValue
    }

    /// PlacetoPay's page for an unknown session.
    static let notFound = PayerPage.notice(title: "PlacetoPay checkout", paragraph: "Session not found.", status: .notFound)
}
