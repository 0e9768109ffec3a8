// How the shop reaches the providers (over AsyncHTTPClient), and the helpers their clients share.
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A provider call that failed: no answer, an unreadable answer, or an error status. Its description is safe to
/// log and to answer (it never holds a key).
struct ProviderError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String
}

/// How the shop reaches the providers: one HTTP request at a time, each with the configured timeout.
struct ProviderHTTP: Sendable {
    /// The client.
    let client: HTTPClient
    /// Seconds allowed per call.
    let timeout: Double
    /// The User-Agent every call carries instead of the clients' own (`SHOP_BUG=app-calls-provider`: a mobile app's,
    /// as when the app calls the provider itself with keys it should not hold); `nil` for the clients' own.
    var userAgent: String? = nil
    /// Whether a retried create gets a new idempotency key (`SHOP_BUG=new-idempotency-key`: wrong, the retry of a
    /// create whose answer was lost must carry the same key).
    var newKeyOnRetry = false

    /// The most a provider's answer may hold.
    static let maxAnswer = 8 << 20

    /// Sends `method url` with `headers` and `body`; answers the status and the body parsed as JSON (`nil` when it
    /// is empty or not JSON).
    /// - Throws: ``ProviderError`` when the provider cannot be reached or its answer cannot be read.
    func call(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8]? = nil) async throws
        -> (status: Int, answer: JSONValue?)
    {
        let reply = try await self.rawCall(method, url, headers: headers, body: body)
        return (reply.status, JSONValue.parse(reply.bytes))
    }

    /// Sends `method url` with `headers` and `body`; answers the status and the body as it came.
    /// - Throws: ``ProviderError`` when the provider cannot be reached or its answer cannot be read.
    func rawCall(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8]? = nil) async throws
        -> (status: Int, bytes: [UInt8], text: String)
    {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers {
            request.headers.add(name: name, value: name.lowercased() == "user-agent" ? self.userAgent ?? value : value)
        }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await self.client.execute(request, timeout: .milliseconds(Int64(self.timeout * 1000)))
            let bytes = Array(try await response.body.collect(upTo: Self.maxAnswer).readableBytesView)
            return (Int(response.status.code), bytes, String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ProviderError(description: "cannot reach the provider: \(Self.reason(error))")
        }
    }

    /// POSTs a create to `url`, and once more, after half a second, when the provider did not answer or answered
    /// 5xx: safe only with an idempotency key in `headers`, which makes the provider answer the same payment.
    /// - Throws: ``ProviderError`` when the second attempt cannot reach the provider either.
    func createRetryingOnce(_ url: String, headers: [(String, String)], body: [UInt8]) async throws -> (status: Int, answer: JSONValue?) {
        do {
            let reply = try await self.call("POST", url, headers: headers, body: body)
            guard reply.status >= 500 else { return reply }
        } catch {}
        try? await Task.sleep(for: .milliseconds(500))
        let retried =
            !self.newKeyOnRetry
            ? headers
            : headers.map { header in
                header.0.lowercased().hasSuffix("idempotency-key") ? (header.0, UUID().uuidString.lowercased()) : header
            }
        return try await self.call("POST", url, headers: retried, body: body)
    }

    /// A client that fails at once when a provider refuses the connection (AsyncHTTPClient's default is to retry
    /// until the deadline), connecting for at most `timeout` seconds.
    static func client(timeout: Double) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .milliseconds(Int64(timeout * 1000))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Why a call failed, in a few words: `[Errno 111] Connection refused`, `timed out`, or the error itself.
    static func reason(_ error: any Error) -> String {
        if let io = error as? IOError {
            return "[Errno \(io.errnoCode)] \(String(cString: strerror(io.errnoCode)))"
        }
        if let http = error as? HTTPClientError, [.deadlineExceeded, .connectTimeout, .readTimeout].contains(http) {
            return "timed out"
        }
        return "\(error)"
    }
}

/// The characters a path segment keeps as they are: ASCII letters and digits and `_.-~`.
private let pathSegmentCharacters = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-~")

/// Percent-encodes `text` for one path segment: everything but ASCII letters, digits and `_.-~`.
func pathSegment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: pathSegmentCharacters) ?? text
}

/// `bytes` as lowercase hex, two digits each.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Whether `a` and `b` are equal, in a time that depends only on their lengths.
func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}
