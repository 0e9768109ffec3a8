import Foundation
import PayCheckCore
package import PayCheckProviders

/// Yuno (providers.md §3.5, §3.6, §3.8, §3.13 P1-5, P2-21): checkout session → one-time token → the payment, sent
/// twice at once under one `X-Idempotency-Key` (one payment; the other answer replays it or is
/// `REQUEST_IN_PROCESS`), then exactly one payment for the order. An approving card ends `SUCCEEDED/APPROVED`, a
/// declining one `DECLINED/DECLINED`; PIX is `READY_TO_PAY/CREATED`, `payer: continue` (twice at once) shows the QR
/// (`PENDING/IN_PROCESS`), `payer: pay` (twice at once) ends it `SUCCEEDED/APPROVED`. Each state the payment reaches
/// is sent to the account's PURCHASE webhooks (§3.8).
struct YunoStress: StressLifecycle {
    package init() {}
    package var provider: any Provider { YunoProvider() }
    var initialStates: Set<String> { ["SUCCEEDED/APPROVED", "DECLINED/DECLINED", "READY_TO_PAY/CREATED"] }
    package var transitions: [String: Set<String>] {
        ["READY_TO_PAY/CREATED": ["PENDING/IN_PROCESS", "EXPIRED/EXPIRED"], "PENDING/IN_PROCESS": ["SUCCEEDED/APPROVED", "EXPIRED/EXPIRED"]]
    }

    package func prepare(_ client: StressClient, hooks: String) async throws {
        try await client.perform(provider, .call, "createWebhook", ["name": "PayCheck stress", "url": .string(hooks), "payment_triggers": ["PURCHASE"]])
            .require(201, "createWebhook")
    }

    package func run(_ index: Int, _ client: StressClient, hooks: String) async throws -> StressSession {
        let provider = self.provider
        let order = "STRESS-Y-\(index)"
        let pix = index % 3 == 2
        let country: Value = pix ? "BR" : "CO"
        let currency: Value = pix ? "BRL" : "COP"
        let amount: Value = pix ? .double(120.5) : .int(52000)
        let checkout = try await client.perform(
            provider, .call, "createCheckoutSession",
            [
                "merchant_order_id": .string(order), "payment_description": "PayCheck stress", "country": country,
                "amount": ["currency": currency, "value": amount],
            ]
        ).require(200, "createCheckoutSession")
        guard let checkoutSession = checkout.text("checkout_session") else { throw StressFailure("no checkout_session") }
        let card: [String: Value] = [
            "number": .string(index % 3 == 0 ? "4507990000000002" : "4507990000000028"), "expiration_month": 11, "expiration_year": 28,
            "security_code": "123", "holder_name": "John Doe",
        ]
        let method: Value = pix ? .object(["type": "PIX"]) : .object(["type": "CARD", "card": .object(card)])
        let token = try await client.perform(provider, .call, "createOneTimeToken", ["checkout_session": .string(checkoutSession), "payment_method": method])
            .require(201, "createOneTimeToken")
        guard let oneTimeToken = token.text("token") else { throw StressFailure("no one-time token") }
        let key = "stress-yuno-\(index)"
        let create: [String: Value] = [
            "idempotencyKey": .string(key), "description": "PayCheck stress", "country": country, "merchant_order_id": .string(order),
            "amount": ["currency": currency, "value": amount], "checkout": ["session": .string(checkoutSession)],
            "payment_method": ["token": .string(oneTimeToken)],
        ]
        let (a, b) = try await race { try await client.perform(provider, .call, "createPayment", create) }
        let ids = Set([a, b].filter { $0.status == 201 }.compactMap { $0.text("id") })
        guard let id = ids.first else { throw StressFailure("neither racing createPayment answered 201: \(a.rawBody.prefix(200))") }
        var session = StressSession(index: index, resource: id, idempotencyKey: key)
        session.duplicateStatuses = [a.status ?? 0, b.status ?? 0]
        if ids.count > 1 { session.problems.append("one X-Idempotency-Key created \(ids.sorted())") }
        for answer in [a, b] where answer.status != 201 && !(answer.status == 400 && answer.rawBody.contains("REQUEST_IN_PROCESS")) {
            session.problems.append("a racing create answered \(answer.status ?? 0): \(answer.rawBody.prefix(120))")
        }
        let byOrder = try await client.perform(provider, .call, "getPaymentsByOrder", ["merchant_order_id": .string(order)])
            .require(200, "getPaymentsByOrder")
        let count = byOrder.body?.arrayValue?.count ?? -1
        if count != 1 { session.problems.append("\(count) payments for order \(order)") }
        session.observe(try await self.query(id, client))
        if pix {
            for action in ["continue", "pay"] {
                let (c, d) = try await race { try await client.perform(provider, .payer, action, ["payment_id": .string(id)]) }
                session.duplicateStatuses += [c.status ?? 0, d.status ?? 0]
                session.observe(try await self.query(id, client))
            }
        }
        return session
    }

    func query(_ id: String, _ client: StressClient) async throws -> String? {
        let answer = try await client.perform(provider, .call, "getPayment", ["payment_id": .string(id)]).require(200, "getPayment")
        guard let status = answer.text("payment.status"), let sub = answer.text("payment.sub_status") else { return nil }
        return "\(status)/\(sub)"
    }

    package func settle(_ session: StressSession, _ client: StressClient) async throws -> StressSession {
        var session = session
        session.observe(try await self.query(session.resource, client))
        return session
    }

    /// Every state the payment reaches is notified (§3.8): the create's and each move's.
    package func expectedWebhooks(_ history: [String]) -> Int { history.count }

    package func attribute(path: String, body: String, _ client: StressClient) async -> StressWebhook {
        let payment = JSONText.parse(body)?["data"]?["payment"]
        let order = payment?["merchant_order_id"]?.stringValue ?? ""
        let state = payment?["status"]?.stringValue.map { "\($0)/\(payment?["sub_status"]?.stringValue ?? "")" }
        return StressWebhook(index: Int(order.replacingOccurrences(of: "STRESS-Y-", with: "")), state: state)
    }
}
