// A reference merchant backend for Mollie's iOS Checkout demo (providers.md §4.0, §4.12 §5): the contract the app
// calls — `GET/POST /api/payments`, `GET /api/payments/{id}`, `GET /api/methods?amount=` with the
// `X-Mollie-Checkout-Device-UUID` header and the `{"data": …}` wrapper — implemented against the Mollie API (the
// PayCheck mock, or Mollie's test mode). Its webhook route re-reads the payment from Mollie, as Mollie asks (§4.6).
//
// It is an example merchant, not part of the mock: it knows Mollie only through HTTP. The mock host serves it under
// `/merchants/mollie-checkout-demo` (so `paycheck run Suites/mollie` checks the whole loop app → backend → Mollie
// mock → webhook → backend → app), and `swift run mollie-demo-backend` serves it on its own port.
import Foundation
package import Hummingbird
import NIOCore
import Synchronization
import NIOFoundationEssentialsCompat

/// Sends one HTTP request to Mollie and answers the status and body.
package protocol MollieHTTP: Sendable {
    /// Sends `method url` with `headers` and an optional `body`.
    func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws
        -> (status: Int, body: [UInt8])
}

/// The backend: its own store of payments per device, and the routes the Checkout demo app calls.
package final class MollieCheckoutDemoBackend: Sendable {
    /// Where the backend is served, relative to a host that also serves other things.
    package static let mountPath = "/merchants/mollie-checkout-demo"

    private let mollieBaseURL: @Sendable () -> String
    private let publicBaseURL: @Sendable () -> String
    private let apiKey: String
    private let http: any MollieHTTP
    private let store = Mutex<[Int: LocalPayment]>([:])

    /// Creates a backend.
    /// - Parameters:
    ///   - mollieBaseURL: Mollie's API root, without `/v2` (e.g. `https://api.mollie.com`); read on every call.
    ///   - publicBaseURL: the backend's own root as Mollie reaches it, for the `webhookUrl`; read on every call.
    ///   - apiKey: a `test_…` key.
    ///   - http: how the backend reaches Mollie.
    package init(
        mollieBaseURL: @escaping @Sendable () -> String, publicBaseURL: @escaping @Sendable () -> String,
        apiKey: String, http: any MollieHTTP
    ) {
        self.mollieBaseURL = mollieBaseURL
        self.publicBaseURL = publicBaseURL
        self.apiKey = apiKey
        self.http = http
    }

    /// Forgets every payment.
    package func reset() {
        self.store.withLock { $0.removeAll() }
    }

    /// Adds the backend's routes to `router` (a router, or a group under ``mountPath``).
    package func addRoutes<Router: RouterMethods>(to router: Router) {
        router.get("api/payments") { request, _ in self.listPayments(request) }
        router.get("api/payments/{id}") { request, context in self.getPayment(request, id: context.parameters.get("id")) }
        router.post("api/payments") { request, _ in try await self.createPayment(request) }
        router.post("payments/{id}/webhook") { _, context in try await self.webhook(id: context.parameters.get("id")) }
        router.get("api/methods") { request, _ in try await self.methods(request) }
    }

    // MARK: Routes

    private func listPayments(_ request: Request) -> Response {
        switch Self.device(request) {
        case .rejected(let response): return response
        case .device(let device):
            let mine = self.store.withLock { $0.values.filter { $0.device == device }.sorted { $0.id > $1.id } }
            return Self.json(["data": mine.map(\.json)])
        }
    }

    private func getPayment(_ request: Request, id: String?) -> Response {
        switch Self.device(request) {
        case .rejected(let response): return response
        case .device(let device):
            guard let local = id.flatMap(Int.init), let payment = self.store.withLock({ $0[local] }), payment.device == device else {
                return Self.json(["message": "Not found."], status: .notFound)
            }
            return Self.json(["data": payment.json])
        }
    }

    private func createPayment(_ request: Request) async throws -> Response {
        let device: String
        switch Self.device(request) {
        case .rejected(let response): return response
        case .device(let value): device = value
        }
        let bytes = try await request.body.collect(upTo: 1 << 16)
        let body = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
        // The demo backend's validation (providers.md §4.0): an amount with at most two decimals, a description
        // of 3–255 characters; Laravel's 422 shape.
        var errors: [String: [String]] = [:]
        let amountText = (body["amount"] as? NSNumber).map { "\($0)" } ?? (body["amount"] as? String) ?? ""
        if amountText.range(of: #"^\d{1,8}(\.\d{0,2})?$"#, options: .regularExpression) == nil {
            errors["amount"] = ["The amount format is invalid."]
        }
        let description = body["description"] as? String ?? ""
        if !(3...255).contains(description.count) {
            errors["description"] = ["The description must be between 3 and 255 characters."]
        }
        guard errors.isEmpty else {
            return Self.json(["message": "The given data was invalid.", "errors": errors], status: .unprocessableContent)
        }
        let amount = Double(amountText) ?? 0
        let method = body["method"] as? String
        let local = self.store.withLock { state -> Int in
            let next = (state.keys.max() ?? 0) + 1
            state[next] = LocalPayment(
                id: next, device: device, method: method, issuer: body["issuer"] as? String, amount: amount, description: description)
            return next
        }
        var create: [String: Any] = [
            "amount": ["currency": "EUR", "value": String(format: "%.2f", amount)], "description": description,
            // The app opens this deep link when Mollie's checkout returns; it carries no status (§4.0).
            "redirectUrl": "mollie-checkout://payments/\(local)",
            "webhookUrl": "\(self.publicBaseURL())/payments/\(local)/webhook",
        ]
        if let method { create["method"] = method }
        let (status, payment) = try await self.mollie("/v2/payments", body: create)
        guard status == 201 else {
            self.store.withLock { _ = $0.removeValue(forKey: local) }
            return Self.json(payment, status: .unprocessableContent)
        }
        let stored = self.store.withLock { state -> LocalPayment? in
            state[local]?.mollieId = payment["id"] as? String
            state[local]?.status = payment["status"] as? String ?? "open"
            state[local]?.url = ((payment["_links"] as? [String: Any])?["checkout"] as? [String: Any])?["href"] as? String
            return state[local]
        }
        return Self.json(["data": stored?.json ?? [:]], status: .created)
    }

    private func webhook(id: String?) async throws -> Response {
        // Mollie posts only `id=tr_…` (§4.6): the backend trusts nothing in it, re-reads the payment and stores its
        // status, then answers 204.
        guard let local = id.flatMap(Int.init), let mollieId = self.store.withLock({ $0[local]?.mollieId }) else {
            return Self.json(["message": "Not found."], status: .notFound)
        }
        let (status, payment) = try await self.mollie("/v2/payments/\(mollieId)")
        guard status == 200, let state = payment["status"] as? String else {
            return Self.json(["message": "Mollie answered \(status)"], status: .badGateway)
        }
        self.store.withLock {
            $0[local]?.status = state
            $0[local]?.updatedAt = Date()
        }
        return Response(status: .noContent)
    }

    private func methods(_ request: Request) async throws -> Response {
        var path = "/v2/methods?include=issuers,pricing"
        if let amount = request.uri.queryParameters.get("amount"), let value = Double(amount) {
            path += "&amount%5Bcurrency%5D=EUR&amount%5Bvalue%5D=" + String(format: "%.2f", value)
        }
        let (status, list) = try await self.mollie(path)
        guard status == 200 else { return Self.json(list, status: .badGateway) }
        let methods = ((list["_embedded"] as? [String: Any])?["methods"] as? [[String: Any]]) ?? []
        return Self.json(["data": methods.map(Self.demoMethod)])
    }

    // MARK: Mollie

    /// Calls Mollie; answers its status and parsed JSON.
    private func mollie(_ path: String, body: [String: Any]? = nil) async throws -> (Int, [String: Any]) {
        var headers = [("Authorization", "Bearer \(self.apiKey)"), ("Accept", "application/hal+json")]
        var bytes: [UInt8]?
        if let body {
            headers.append(("Content-Type", "application/json"))
            bytes = Array(try JSONSerialization.data(withJSONObject: body))
        }
        let (status, reply) = try await self.http.send(
            method: body == nil ? "GET" : "POST", url: self.mollieBaseURL() + path, headers: headers, body: bytes)
        let json = (try? JSONSerialization.jsonObject(with: Data(reply))) as? [String: Any] ?? [:]
        return (status, json)
    }

    /// A Mollie method in the demo's snake_case shape, which spells the limits `minimum_mount` / `maximum_mount`
    /// (§4.0) and gives amounts as numbers.
    private static func demoMethod(_ method: [String: Any]) -> [String: Any] {
        func amount(_ value: Any?) -> Any {
            guard let object = value as? [String: Any] else { return NSNull() }
            return ["value": Double(object["value"] as? String ?? "") ?? 0, "currency": object["currency"] ?? "EUR"]
        }
        func image(_ value: Any?) -> [String: Any] {
            let object = value as? [String: Any] ?? [:]
            return ["size_1x": object["size1x"] ?? "", "size_2x": object["size2x"] ?? "", "svg": object["svg"] ?? ""]
        }
        let issuers = (method["issuers"] as? [[String: Any]]).map { issuers in
            issuers.map { ["id": $0["id"] ?? "", "name": $0["name"] ?? "", "image": image($0["image"])] as [String: Any] }
        }
        let pricing = (method["pricing"] as? [[String: Any]]).map { prices in
            prices.map { price -> [String: Any] in
                let fixed = price["fixed"] as? [String: Any] ?? [:]
                return [
                    "description": price["description"] ?? "",
                    "fixed": ["value": Double(fixed["value"] as? String ?? "") ?? 0, "currency": fixed["currency"] ?? "EUR"],
                    "variable": Double(price["variable"] as? String ?? "") ?? 0, "fee_region": price["feeRegion"] ?? NSNull(),
                ]
            }
        }
        return [
            "id": method["id"] ?? "", "description": method["description"] ?? "",
            "minimum_mount": amount(method["minimumAmount"]), "maximum_mount": amount(method["maximumAmount"]),
            "image": image(method["image"]), "issuers": issuers as Any? ?? NSNull(), "pricing": pricing as Any? ?? NSNull(),
        ]
    }

    // MARK: Helpers

    /// The device header every payments route needs (the demo's `Middleware/Device.php`): 400 when missing or
    /// not a UUID.
    private static func device(_ request: Request) -> DeviceCheck {
        guard let value = request.headers[HTTPFields.Element.Name("X-Mollie-Checkout-Device-UUID")!] else {
            return .rejected(self.json(["message": "`X-Mollie-Checkout-Device-UUID` header is missing."], status: .badRequest))
        }
        guard UUID(uuidString: value) != nil else {
            return .rejected(self.json(["message": "`X-Mollie-Checkout-Device-UUID` header is invalid."], status: .badRequest))
        }
        return .device(value.lowercased())
    }

    private static func json(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The device header of a request: its value, or the 400 answer.
private enum DeviceCheck {
    case device(String)
    case rejected(Response)
}

/// One payment of the backend's own store.
private struct LocalPayment: Sendable {
    var id: Int
    var device: String
    var mollieId: String?
    var method: String?
    var issuer: String?
    var amount: Double
    var description: String
    var url: String?
    var status = "open"
    var createdAt = Date()
    var updatedAt = Date()

    var json: [String: Any] {
        let atom = ISO8601DateFormatter()
        return [
            "id": self.id, "mollie_id": self.mollieId as Any? ?? NSNull(), "method": self.method as Any? ?? NSNull(),
            "issuer": self.issuer as Any? ?? NSNull(), "amount": self.amount, "description": self.description,
            "url": self.url as Any? ?? NSNull(), "status": self.status,
            "created_at": atom.string(from: self.createdAt), "updated_at": atom.string(from: self.updatedAt),
        ]
    }
}
