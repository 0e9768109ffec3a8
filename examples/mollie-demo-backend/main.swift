// A reference merchant backend for Mollie's iOS Checkout demo (providers.md §4.0, §4.12 §5): the contract the app
// calls — `GET/POST /api/payments`, `GET /api/payments/{id}`, `GET /api/methods?amount=` with the
// `X-Mollie-Checkout-Device-UUID` header and the `{"data": …}` wrapper — implemented against the Mollie API (the
// PayCheck mock, or Mollie's test mode). Its webhook route re-reads the payment from Mollie, as Mollie asks.
//
//   swift run mollie-demo-backend --port 8000 --mollie http://127.0.0.1:8080/mollie --key test_…
//
// `Suites/mollie-backend/contract.yaml` checks any backend that claims this contract; `.ci/run` runs it against
// this one, with a standalone `paycheck mock` as its Mollie.
import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import Synchronization

struct Options {
    var port = 8000
    var mollie = "http://127.0.0.1:8080/mollie"
    var key = "test_PayCheckMollieMockKey0123456789ab"

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let flag = iterator.next() {
            switch flag {
            case "--port": port = iterator.next().flatMap(Int.init) ?? port
            case "--mollie": mollie = iterator.next() ?? mollie
            case "--key": key = iterator.next() ?? key
            default: FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8)); exit(2)
            }
        }
    }
}

/// One payment of the backend's own store.
struct LocalPayment: Sendable {
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
        return ["id": id, "mollie_id": mollieId as Any? ?? NSNull(), "method": method as Any? ?? NSNull(), "issuer": issuer as Any? ?? NSNull(),
                "amount": amount, "description": description, "url": url as Any? ?? NSNull(), "status": status,
                "created_at": atom.string(from: createdAt), "updated_at": atom.string(from: updatedAt)]
    }
}

let options = Options(CommandLine.arguments)
let store = Mutex<[Int: LocalPayment]>([:])
let http = HTTPClient(eventLoopGroupProvider: .singleton)

func respond(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}

/// Calls Mollie; answers its status and parsed JSON.
func mollie(_ path: String, body: [String: Any]? = nil) async throws -> (Int, [String: Any]) {
    var request = HTTPClientRequest(url: options.mollie + path)
    request.method = body == nil ? .GET : .POST
    request.headers.add(name: "Authorization", value: "Bearer \(options.key)")
    request.headers.add(name: "Accept", value: "application/hal+json")
    if let body {
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
    }
    let response = try await http.execute(request, timeout: .seconds(10))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    let json = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
    return (Int(response.status.code), json)
}

/// The device header every payments route needs (`Middleware/Device.php`): 400 when missing or not a UUID.
func device(_ request: Request) -> Result<String, HTTPError> {
    guard let value = request.headers[HTTPFields.Element.Name("X-Mollie-Checkout-Device-UUID")!] else {
        return .failure(HTTPError(.badRequest, message: "`X-Mollie-Checkout-Device-UUID` header is missing."))
    }
    guard UUID(uuidString: value) != nil else {
        return .failure(HTTPError(.badRequest, message: "`X-Mollie-Checkout-Device-UUID` header is invalid."))
    }
    return .success(value.lowercased())
}

func failure(_ error: HTTPError) -> Response { respond(["message": error.body ?? ""], status: error.status) }

let router = Router()
let base = "http://127.0.0.1:\(options.port)"

router.get("api/payments") { request, _ -> Response in
    guard case .success(let id) = device(request) else { if case .failure(let e) = device(request) { return failure(e) }; return respond([:]) }
    let mine = store.withLock { $0.values.filter { $0.device == id }.sorted { $0.id > $1.id } }
    return respond(["data": mine.map(\.json)])
}

router.get("api/payments/{id}") { request, context -> Response in
    guard case .success(let id) = device(request) else { if case .failure(let e) = device(request) { return failure(e) }; return respond([:]) }
    guard let local = Int(context.parameters.get("id") ?? ""), let payment = store.withLock({ $0[local] }), payment.device == id else {
        return respond(["message": "Not found."], status: .notFound)
    }
    return respond(["data": payment.json])
}

router.post("api/payments") { request, _ -> Response in
    guard case .success(let id) = device(request) else { if case .failure(let e) = device(request) { return failure(e) }; return respond([:]) }
    let bytes = try await request.body.collect(upTo: 1 << 16)
    let body = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
    var errors: [String: [String]] = [:]
    let amountText = (body["amount"] as? NSNumber).map { "\($0)" } ?? (body["amount"] as? String) ?? ""
    if amountText.range(of: #"^\d{1,8}(\.\d{0,2})?$"#, options: .regularExpression) == nil { errors["amount"] = ["The amount format is invalid."] }
    let description = body["description"] as? String ?? ""
    if !(3...255).contains(description.count) { errors["description"] = ["The description must be between 3 and 255 characters."] }
    guard errors.isEmpty else { return respond(["message": "The given data was invalid.", "errors": errors], status: .unprocessableContent) }
    let amount = Double(amountText) ?? 0
    let local = store.withLock { state -> Int in
        let next = (state.keys.max() ?? 0) + 1
        state[next] = LocalPayment(id: next, device: id, method: body["method"] as? String, issuer: body["issuer"] as? String, amount: amount, description: description)
        return next
    }
    var create: [String: Any] = [
        "amount": ["currency": "EUR", "value": String(format: "%.2f", amount)], "description": description,
        "redirectUrl": "mollie-checkout://payments/\(local)", "webhookUrl": "\(base)/payments/\(local)/webhook",
    ]
    if let method = body["method"] as? String { create["method"] = method }
    let (status, payment) = try await mollie("/v2/payments", body: create)
    guard status == 201 else { return respond(payment, status: .unprocessableContent) }
    let stored = store.withLock { state -> LocalPayment? in
        state[local]?.mollieId = payment["id"] as? String
        state[local]?.status = payment["status"] as? String ?? "open"
        state[local]?.url = ((payment["_links"] as? [String: Any])?["checkout"] as? [String: Any])?["href"] as? String
        return state[local]
    }
    return respond(["data": stored?.json ?? [:]], status: .created)
}

router.post("payments/{id}/webhook") { request, context -> Response in
    // Mollie posts only `id=tr_…`: re-read the payment and store its status (§4.6), then answer 204.
    guard let local = Int(context.parameters.get("id") ?? ""), let mollieId = store.withLock({ $0[local]?.mollieId }) else {
        return respond(["message": "Not found."], status: .notFound)
    }
    let (status, payment) = try await mollie("/v2/payments/\(mollieId)")
    guard status == 200, let state = payment["status"] as? String else { return respond(["message": "Mollie answered \(status)"], status: .badGateway) }
    store.withLock { $0[local]?.status = state; $0[local]?.updatedAt = Date() }
    return Response(status: .noContent)
}

router.get("api/methods") { request, _ -> Response in
    var path = "/v2/methods?include=issuers,pricing"
    if let amount = request.uri.queryParameters.get("amount"), let value = Double(amount) {
        path += "&amount%5Bcurrency%5D=EUR&amount%5Bvalue%5D=" + String(format: "%.2f", value)
    }
    let (status, list) = try await mollie(path)
    guard status == 200 else { return respond(list, status: .badGateway) }
    let methods = ((list["_embedded"] as? [String: Any])?["methods"] as? [[String: Any]]) ?? []
    func amount(_ value: Any?) -> Any {
        guard let object = value as? [String: Any] else { return NSNull() }
        return ["value": Double(object["value"] as? String ?? "") ?? 0, "currency": object["currency"] ?? "EUR"]
    }
    func image(_ value: Any?) -> [String: Any] {
        let object = value as? [String: Any] ?? [:]
        return ["size_1x": object["size1x"] ?? "", "size_2x": object["size2x"] ?? "", "svg": object["svg"] ?? ""]
    }
    let data: [[String: Any]] = methods.map { method in
        [
            "id": method["id"] ?? "", "description": method["description"] ?? "",
            // The demo contract spells these `minimum_mount` / `maximum_mount` (§4.0).
            "minimum_mount": amount(method["minimumAmount"]), "maximum_mount": amount(method["maximumAmount"]),
            "image": image(method["image"]),
            "issuers": (method["issuers"] as? [[String: Any]]).map { issuers in
                issuers.map { ["id": $0["id"] ?? "", "name": $0["name"] ?? "", "image": image($0["image"])] as [String: Any] }
            } as Any? ?? NSNull(),
            "pricing": (method["pricing"] as? [[String: Any]]).map { prices in
                prices.map { price -> [String: Any] in
                    let fixed = price["fixed"] as? [String: Any] ?? [:]
                    return ["description": price["description"] ?? "", "fixed": ["value": Double(fixed["value"] as? String ?? "") ?? 0, "currency": fixed["currency"] ?? "EUR"],
                            "variable": Double(price["variable"] as? String ?? "") ?? 0, "fee_region": price["feeRegion"] ?? NSNull()]
                }
            } as Any? ?? NSNull(),
        ]
    }
    return respond(["data": data])
}

let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: options.port)))
print("Mollie demo backend listening on \(base) (Mollie at \(options.mollie))")
try await app.runService()
