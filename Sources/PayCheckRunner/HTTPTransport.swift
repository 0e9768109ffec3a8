package import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PayCheckCore
package import PayCheckProviders
import NIOHTTPCompression
import NIOSSL

/// Sends HTTP requests. The runner uses AsyncHTTPClient; tests may substitute a fake.
package protocol HTTPTransport: Sendable {
    /// Sends a request and returns the whole response, or throws a `TransportError`.
    func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData
}

/// A request that got no HTTP response: connection refused, timeout, TLS failure, bad URL.
package struct TransportError: Error, Sendable, CustomStringConvertible {
    /// Why the exchange never completed, as the transport saw it.
    package enum Cause: String, Sendable, CaseIterable {
        /// No answer within the step's time limit.
        case timeout
        /// The connection could not be made (refused, no route, a name that does not resolve).
        case connect
        /// The server closed or reset the connection before a whole answer.
        case closed
        /// The TLS handshake failed: a certificate that does not chain to the trusted CAs, a refused client
        /// certificate, no common protocol.
        case tls
        /// Anything else the HTTP client reported.
        case other

        /// The class-S code a step's `expect: { error: { code } }` sees (DESIGN.md §3, ``ServiceFailure``).
        package var serviceCode: String { self == .timeout ? ServiceFailure.timeout : ServiceFailure.connection }
    }

    /// Why it failed.
    package var cause: Cause
    /// A message naming the request and the cause.
    package var message: String
    /// Creates an error.
    package init(_ cause: Cause, _ message: String) {
        self.cause = cause
        self.message = message
    }
    /// The message.
    package var description: String { message }
}

/// AsyncHTTPClient-backed transport; its lifetime is scoped by `HTTPClient.withHTTPClient`.
package struct AsyncHTTPTransport: HTTPTransport {
    /// The largest response body read, in bytes.
    package static let maxBodyBytes = 16 * 1024 * 1024
    private let client: HTTPClient

    /// Wraps a client whose lifetime the caller scopes.
    package init(client: HTTPClient) { self.client = client }

    /// A client configuration for conformance runs: no redirects followed (they are asserted), pooled connections.
    package static var configuration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        // A refused connection is an answer (the service is down): report it at once instead of
        // retrying until the deadline. `retry:` on a step is how a suite asks for persistence.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: .ratio(50))
        return configuration
    }

    /// ``configuration`` with a live target's TLS: its CA bundle instead of the system's trust store, and a client
    /// certificate to present.
    /// - Throws: ``TLSFileError`` naming the file that cannot be read as PEM.
    package static func configuration(tls options: LiveTarget.TLSOptions) throws(TLSFileError) -> HTTPClient.Configuration {
        var configuration = self.configuration
        guard !options.isDefault else { return configuration }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let ca = options.ca {
            let roots = try TLSFileError.reading(ca, "CA bundle") { try NIOSSLCertificate.fromPEMFile(ca) }
            guard !roots.isEmpty else { throw TLSFileError(path: ca, what: "CA bundle", reason: "it holds no PEM certificate") }
            tls.trustRoots = .certificates(roots)
        }
        if let certificate = options.certificate, let key = options.key {
            let chain = try TLSFileError.reading(certificate, "client certificate") { try NIOSSLCertificate.fromPEMFile(certificate) }
            guard !chain.isEmpty else { throw TLSFileError(path: certificate, what: "client certificate", reason: "it holds no PEM certificate") }
            tls.certificateChain = chain.map { .certificate($0) }
            tls.privateKey = .privateKey(try TLSFileError.reading(key, "client key") { try NIOSSLPrivateKey(file: key, format: .pem) })
        }
        configuration.tlsConfiguration = tls
        return configuration
    }

    /// Sends the request with a deadline of `timeout` seconds.
    package func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
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
            throw AsyncHTTPTransport.transportError(error, request: request, timeout: timeout)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw AsyncHTTPTransport.transportError(error, request: request)
        }
    }

    /// The HTTP client's own errors, by their identity.
    private static func transportError(_ error: HTTPClientError, request: HTTPRequestData, timeout: Double) -> TransportError {
        let what = "\(request.method) \(request.url)"
        switch error {
        case .deadlineExceeded, .readTimeout, .connectTimeout:
            return TransportError(.timeout, "\(what): no response within \(DurationText.format(timeout))")
        case .invalidURL, .emptyHost, .emptyScheme:
            return TransportError(.connect, "\(what): invalid URL")
        case .remoteConnectionClosed:
            return TransportError(.closed, "\(what): the server closed the connection without a response")
        default:
            return TransportError(.other, "\(what): \(error)")
        }
    }

    /// The network's errors (NIO's), by their type: a connection that could not be made, or one that broke.
    private static func transportError(_ error: any Error, request: HTTPRequestData) -> TransportError {
        let what = "\(request.method) \(request.url)"
        if let connection = error as? NIOConnectionError {
            let refused = connection.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return TransportError(.connect, "\(what): " + (refused ? "connection refused" : "cannot connect (\(String(describing: connection).prefix(200)))"))
        }
        if let io = error as? IOError {
            let closed = [ECONNRESET, EPIPE, ECONNABORTED].contains(io.errnoCode)
            if io.errnoCode == ECONNREFUSED { return TransportError(.connect, "\(what): connection refused") }
            return TransportError(closed ? .closed : .other, "\(what): \(String(describing: io).prefix(300))")
        }
        if error is ChannelError { return TransportError(.closed, "\(what): \(String(describing: error).prefix(300))") }
        if error is NIOSSLError || error is BoringSSLError {
            return TransportError(.tls, "\(what): " + tlsFailure(String(describing: error)))
        }
        return TransportError(.other, "\(what): \(String(describing: error).prefix(300))")
    }
}

extension AsyncHTTPTransport {
    /// A TLS failure in words: BoringSSL's reasons (`CERTIFICATE_VERIFY_FAILED`), without the source paths of the build
    /// its dump carries, and what to do about an untrusted certificate.
    package static func tlsFailure(_ description: String) -> String {
        var reasons: [String] = []
        for match in description.matches(of: #/OPENSSL_internal:([A-Z0-9_]+)/#) where !reasons.contains(String(match.1)) {
            reasons.append(String(match.1))
        }
        let why = reasons.isEmpty ? String(description.prefix { $0 != "\n" }.prefix(200)).components(separatedBy: " at /")[0] : reasons.joined(separator: ", ")
        let untrusted = reasons.contains { $0.contains("CERTIFICATE_VERIFY") || $0.contains("UNKNOWN_CA") || $0.contains("UNABLE_TO_GET_ISSUER") }
        return "the TLS handshake failed (\(why))"
            + (untrusted
                ? "; the host's certificate is not trusted: if it comes from a private CA, give the target 'tls: { ca: <bundle.pem> }' in the profile"
                : "")
    }
}

/// A TLS file of a live target that cannot be used.
package struct TLSFileError: Error, Sendable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// What it was meant to be: `CA bundle`, `client certificate`, `client key`.
    package var what: String
    /// Why it cannot be used.
    package var reason: String

    /// The message.
    package var description: String { "cannot use '\(path)' as the \(what): \(reason)" }

    /// Runs `read`, turning any error into one naming the file.
    static func reading<T>(_ path: String, _ what: String, _ read: () throws -> T) throws(TLSFileError) -> T {
        guard FileManager.default.isReadableFile(atPath: path) else { throw TLSFileError(path: path, what: what, reason: "no such readable file") }
        do { return try read() } catch { throw TLSFileError(path: path, what: what, reason: "it is not PEM (\(error))") }
    }
}
