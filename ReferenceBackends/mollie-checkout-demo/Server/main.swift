// Serves the reference merchant backend for Mollie's iOS Checkout demo (../Backend, MollieCheckoutDemoBackend) on its
// own port, against any Mollie API root:
//
//   swift run mollie-demo-backend --port 8000 --mollie http://127.0.0.1:8080/mollie --key test_…
//
// `Suites/mollie/demo-backend.yaml` checks any backend that claims the demo's contract (`--var backend=…`); the mock
// host serves this same backend under /merchants/mollie-checkout-demo, and `.ci/run` also runs the suite against this
// standalone executable, with a standalone `paycheck mock` as its Mollie.
import AsyncHTTPClient
import Foundation
import Hummingbird
import MollieCheckoutDemoBackend
import NIOCore
import NIOHTTP1

struct Options {
    var port = 8000
    var mollie = "http://127.0.0.1:8080/mollie"
    var key = "test_PayCheckMollieMockKey0123456789ab"

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let flag = iterator.next() {
            switch flag {
            case "--port": self.port = iterator.next().flatMap(Int.init) ?? self.port
            case "--mollie": self.mollie = iterator.next() ?? self.mollie
            case "--key": self.key = iterator.next() ?? self.key
            default:
                FileHandle.standardError.write(Data("unknown option \(flag) (use --port, --mollie, --key)\n".utf8))
                exit(2)
            }
        }
    }
}

/// Reaches Mollie through AsyncHTTPClient.
struct AsyncMollieHTTP: MollieHTTP {
    let client: HTTPClient

    func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await self.client.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), Array(bytes.readableBytesView))
    }
}

let options = Options(CommandLine.arguments)
let base = "http://127.0.0.1:\(options.port)"
let mollieRoot = options.mollie.hasSuffix("/v2") ? String(options.mollie.dropLast(3)) : options.mollie
let backend = MollieCheckoutDemoBackend(
    mollieBaseURL: { mollieRoot }, publicBaseURL: { base }, apiKey: options.key, http: AsyncMollieHTTP(client: .shared))
let router = Router()
backend.addRoutes(to: router)
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: options.port)))
print("Mollie demo backend listening on \(base) (Mollie at \(options.mollie))")
try await app.runService()
