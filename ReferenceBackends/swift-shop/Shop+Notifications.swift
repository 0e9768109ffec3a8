// What the providers tell the shop: Mollie's webhook, PlacetoPay's and khipu's notifications, MIT's result, Yuno's
// webhook, and the app's token for a Yuno payment. Each is checked, then the provider is asked.
import Foundation
import Hummingbird

extension Shop {
    /// `POST /webhooks/mollie` (form `id=tr_…`): re-fetches the payment and applies its status. 200 also for an
    /// unknown id (it tells nothing about which ids exist); 503 when Mollie cannot be reached, so Mollie retries.
    func mollieWebhook(_ body: [UInt8]) async -> Reply {
        let paymentID = Self.formValue("id", in: body) ?? ""
        guard !paymentID.isEmpty else { return .error(.badRequest, "missing id") }
        guard let order = self.store.order(provider: .mollie, paymentID: paymentID) else { return .empty }
        if self.config.bug == .noSignatureCheck {
            // Wrong on purpose: the webhook alone decides.
            self.store.apply(.paid, to: order.id, source: .notification)
            return .empty
        }
        do {
            if let status = try await self.mollie.status(of: paymentID) {
                self.store.apply(status, to: order.id, source: .notification)
            }
        } catch {
            log("order \(order.id): webhook re-query failed: \(error)")
            return .error(.serviceUnavailable, "try again later")
        }
        return .empty
    }

    /// `POST /webhooks/placetopay` (JSON notification): checks the signature, then re-queries the session and applies
    /// its status, never the body's. 400 for an invalid signature (nothing changes); 200 for an unknown requestId;
    /// 503 when the re-query fails.
    func placetopayNotification(_ body: [UInt8]) async -> Reply {
        guard let data = JSONValue.parse(body), data.isObject else { return .error(.badRequest, "the body must be a JSON object") }
        let requestID = data["requestId"]?.text ?? ""
        if self.config.bug == .noSignatureCheck {
            // Wrong on purpose: no signature check, and the body's status is taken as the truth.
            if let order = self.store.order(provider: .placetopay, paymentID: requestID),
                let status = PlacetoPayClient.map(status: data["status"], payment: nil)
            {
                self.store.apply(status, to: order.id, source: .notification)
            }
            return .empty
        }
        guard self.placetopay.isSignatureValid(data) else {
            log("PlacetoPay notification for requestId \(data["requestId"]?.text ?? "") ignored: invalid signature")
            return .error(.badRequest, "invalid signature")
        }
        guard let order = self.store.order(provider: .placetopay, paymentID: requestID) else { return .empty }
        if let reference = data["reference"], reference != .null, reference != .string(order.id) { return .empty }
        do {
            if let status = try await self.placetopay.status(of: requestID) {
                self.store.apply(status, to: order.id, source: .notification)
            }
        } catch {
            log("order \(order.id): notification re-query failed: \(error)")
            return .error(.serviceUnavailable, "try again later")
        }
        return .empty
    }

    /// `POST /orders/<id>/pay` (`{"token": "…"}`): the app hands over the one-time token Yuno's SDK made for the
    /// order's checkout session; the shop creates the payment from it (§3.5) and applies the status Yuno answered.
    func payOrder(_ id: String, _ body: [UInt8]) async -> Reply {
        guard let order = self.store.order(id) else { return .error(.notFound, "order not found") }
        guard order.provider == .yuno, let session = order.paymentID else { return .error(.conflict, "only a Yuno order is paid with a token") }
        guard let token = JSONValue.parse(body)?["token"]?.stringValue, !token.isEmpty else { return .error(.badRequest, "token is required") }
        guard order.yunoPaymentID == nil else { return .error(.conflict, "the order already has a payment") }
        let charged = self.charged(order)
        do {
            let (paymentID, status) = try await self.yuno.pay(charged, session: session, token: token)
            self.store.attach(yunoPayment: paymentID, to: id)
            log("order \(id) paid through Yuno payment \(paymentID)")
            let current = status.flatMap { self.store.apply($0, to: id, source: .query) } ?? self.store.order(id) ?? order
            return Reply(status: .created, body: current.json)
        } catch {
            log("order \(id): creating the Yuno payment failed: \(error)")
            return .error(.badGateway, "\(error)")
        }
    }

    /// A Yuno webhook (providers.md §3.8): `{type, type_event, data{payment}}`, signed in `x-hmac-signature`. One
    /// that does not verify is refused; one that does makes the shop fetch the payment and act on what Yuno answers
    /// (webhooks can come late, twice or out of order, §3.13 P1-14).
    func yunoWebhook(_ body: [UInt8], signature: String?) async -> Reply {
        guard let data = JSONValue.parse(body), let paymentID = data["data"]?["payment"]?["id"]?.stringValue else {
            return .error(.badRequest, "the body must be a Yuno webhook")
        }
        if self.config.bug == .noSignatureCheck {
            // Wrong on purpose: no signature check, and the body's status is taken as the truth.
            if let order = self.store.order(provider: .yuno, paymentID: paymentID),
                let status = YunoClient.map(status: data["data"]?["payment"]?["status"]?.stringValue)
            {
                self.store.apply(status, to: order.id, source: .notification)
            }
            return .empty
        }
        guard self.yuno.isSignatureValid(signature, body: body) else {
            log("Yuno webhook for payment \(paymentID) ignored: invalid signature")
            return .error(.badRequest, "invalid signature")
        }
        guard let order = self.store.order(provider: .yuno, paymentID: paymentID) else { return .empty }
        if self.config.bug == .paidMovedBack {
            // Wrong on purpose: the verified body's status is applied as it is, even over a final one.
            if let status = YunoClient.map(status: data["data"]?["payment"]?["status"]?.stringValue) {
                self.store.apply(status, to: order.id, source: .notification, overridingFinal: true)
            }
            return .empty
        }
        do {
            if let status = try await self.yuno.status(of: paymentID) { self.store.apply(status, to: order.id, source: .notification) }
        } catch {
            log("order \(order.id): fetching the Yuno payment failed: \(error)")
            return .error(.serviceUnavailable, "try again")
        }
        return .empty
    }

    // MARK: Helpers

    /// The result MIT posts to the response URL (providers.md §5.3): `strResponse`, encrypted with the key. One that
    /// does not decrypt, or names another amount than the order's, changes nothing.
    func mitResult(_ body: [UInt8]) async -> Reply {
        guard let blob = Self.formValue("strResponse", in: body), !blob.isEmpty else { return .error(.badRequest, "missing strResponse") }
        guard let result = self.mit.read(result: blob) else {
            log("MIT result ignored: it does not decrypt with the key")
            return .error(.badRequest, "invalid result")
        }
        guard let order = self.store.order(result.reference), order.provider == .mit else { return .empty }
        if result.status == .paid {
            let expected = try? Amount(order.amount, currency: order.currency, zeroDecimal: [])
            let paid = try? Amount(result.amount, currency: order.currency, zeroDecimal: [])
            guard let expected, let paid, expected.text == paid.text else {
                log("MIT result for order \(order.id) ignored: amount \(result.amount) is not the order's")
                return .empty
            }
        }
        self.store.apply(result.status, to: order.id, source: .notification)
        return .empty
    }

    /// An API 3.0 notification (providers.md §2.7): the payment JSON, signed in `x-khipu-signature`. A notification
    /// that does not verify is refused; one that does makes the shop re-fetch the payment and act on what khipu
    /// answers.
    func khipuNotification(_ body: [UInt8], signature: String?) async -> Reply {
        guard let data = JSONValue.parse(body), data.isObject, let paymentID = data["payment_id"]?.stringValue else {
            return .error(.badRequest, "the body must be a khipu payment")
        }
        if self.config.bug == .noSignatureCheck {
            // Wrong on purpose: no signature check, and the body's status is taken as the truth.
            if let order = self.store.order(provider: .khipu, paymentID: paymentID),
                let status = KhipuClient.map(status: data["status"]?.stringValue, detail: data["status_detail"]?.stringValue)
            {
                self.store.apply(status, to: order.id, source: .notification)
            }
            return .empty
        }
        guard self.khipu.isSignatureValid(header: signature, body: body) else {
            log("khipu notification for payment \(paymentID) ignored: invalid signature")
            return .error(.badRequest, "invalid signature")
        }
        guard let order = self.store.order(provider: .khipu, paymentID: paymentID) else { return .empty }
        do {
            if let status = try await self.khipu.status(of: paymentID) { self.store.apply(status, to: order.id, source: .notification) }
        } catch {
            log("order \(order.id): re-fetching the khipu payment failed: \(error)")
            return .error(.serviceUnavailable, "try again")
        }
        return .empty
    }
}
