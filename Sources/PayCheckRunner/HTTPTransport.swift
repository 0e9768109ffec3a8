import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PayCheckCore
import PayCheckProviders

/// Sends HTTP requests. The runner uses AsyncHTTPClient; tests may substitute a fake.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the whole response, or throws a `TransportError`.
    func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData
}

/// A request that got no HTTP response: connection refused, timeout, TLS failure, bad URL.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// A message naming the URL and the cause.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// AsyncHTTPClient-backed transport; its lifetime is scoped by `HTTPClient.withHTTPClient`.
public struct AsyncHTTPTransport: HTTPTransport {
    /// The largest response body read, in bytes.
    public static let maxBodyBytes = 16 * 1024 * 1024
    private let client: HTTPClient

    /// Wraps a client whose lifetime the caller scopes.
    public init(client: HTTPClient) { self.client = client }

    /// A client configuration for conformance runs: no redirects followed (they are asserted), pooled connections.
    public static var configuration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        // A refused connection is an answer (the service is down): report it at once instead of
        // retrying until the deadline. `retry:` on a step is how a suite asks for persistence.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: .ratio(50))
        return configuration
    }

    /// Sends the request with a deadline of `timeout` seconds.
    public func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
        if let problem = HTTPURLCheck.problem(request.url) { throw ProviderError.invalidStep("cannot send to \(problem)") }
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if !request.body.isEmpty { outgoing.body = .bytes(ByteBuffer(bytes: request.body)) }
        let nanos = DurationText.nanoseconds(max(0.001, timeout))
        do {
            let response = try await client.execute(outgoing, timeout: .nanoseconds(nanos))
            let body = try await response.body.collect(upTo: AsyncHTTPTransport.maxBodyBytes)
            return HTTPResponseData(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: Array(buffer: body))
        } catch let error as HTTPClientError {
            throw TransportError(AsyncHTTPTransport.describe(error, request: request, timeout: timeout))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw TransportError("\(request.method) \(request.url): \(AsyncHTTPTransport.describe(error))")
        }
    }

    private static func describe(_ error: HTTPClientError, request: HTTPRequestData, timeout: Double) -> String {
        let what = "\(request.method) \(request.url)"
        if error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            return "\(what): no response within \(formatSeconds(timeout))"
        }
        if error == .invalidURL || error == .emptyHost || error == .emptyScheme {
            return "\(what): invalid URL"
        }
        if error == .remoteConnectionClosed {
            return "\(what): the server closed the connection without a response"
        }
        return "\(what): \(error)"
    }

    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        if text.contains("NIOConnectionError") { return "cannot connect (\(text.prefix(200)))" }
        return String(text.prefix(300))
    }

    static func formatSeconds(_ s: Double) -> String {
        s < 1 ? "\(Int(s * 1000))ms" : (s.rounded() == s ? "\(Int(s))s" : String(format: "%.1fs", s))
    }
}
