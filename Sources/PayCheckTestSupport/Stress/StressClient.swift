package import AsyncHTTPClient
import Foundation
package import PayCheckCore
package import PayCheckProviders
import PayCheckRunner
import Synchronization
import NIOCore

/// Drives a mock host over HTTP the way the runner does: provider steps go through ``ProviderExecutor`` (the
/// provider's own signer, codecs and reader), control requests are JSON POSTs under `/__paycheck/`. Used by the
/// stress test and the lifecycle benchmark.
package struct StressClient: Sendable {
    /// The mock host's base URL, e.g. `http://127.0.0.1:8080`.
    package let baseURL: String
    /// Seconds each request may take.
    package let timeout: Double
    /// Records every request's latency when set (the lifecycle benchmark).
    let meter: StressMeter?
    private let transport: AsyncHTTPTransport

    /// Wraps `client`, whose lifetime the caller scopes.
    package init(client: HTTPClient, baseURL: String, timeout: Double = 60, meter: StressMeter? = nil) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.meter = meter
        self.transport = AsyncHTTPTransport(client: client)
    }

    /// Sends through the transport, timed when a meter is set.
    private static func send(
        _ request: HTTPRequestData, _ transport: AsyncHTTPTransport, timeout: Double, meter: StressMeter?
    ) async throws -> HTTPResponseData {
        guard let meter else { return try await transport.send(request, timeout: timeout) }
        let start = ContinuousClock.now
        let response = try await transport.send(request, timeout: timeout)
        meter.record(ContinuousClock.now - start)
        return response
    }

    /// A client configuration for many concurrent sessions on one host.
    package static func configuration(connections: Int) -> HTTPClient.Configuration {
        var configuration = AsyncHTTPTransport.configuration
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, connections))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Performs one provider step (`call:`, `payer:`, `mock:`) with `parameters` as its `with:` mapping.
    package func perform(
        _ provider: any Provider, _ kind: ProviderAction.Kind, _ name: String, _ parameters: [String: Value] = [:]
    ) async throws -> Observation {
        let transport = self.transport
        let timeout = self.timeout
        let meter = self.meter
        let context = ProviderContext(
            baseURL: self.baseURL + (provider.mockBasePaths.first ?? "/" + provider.id), controlURL: self.baseURL,
            credentials: provider.mockCredentials, now: { Date() },
            randomBytes: { count in (0..<count).map { _ in UInt8.random(in: 0...255) } },
            send: { try await Self.send($0, transport, timeout: timeout, meter: meter) },
            addSecret: { _ in })
        return try await ProviderExecutor(provider: provider)
            .perform(ProviderActionRequest(kind: kind, name: name, parameters: .object(parameters), auth: nil), context: context)
    }

    /// Sends a plain request; a POST under the control API carries `Content-Type: application/json`.
    package func send(_ method: String, _ url: String, json: Value? = nil) async throws -> HTTPResponseData {
        let absolute = url.hasPrefix("http") ? url : self.baseURL + url
        let headers: [(name: String, value: String)] = json == nil ? [] : [("Content-Type", "application/json")]
        let body = json.map { JSONText.encodeBytes($0) } ?? []
        return try await Self.send(
            HTTPRequestData(method: method, url: absolute, headers: headers, body: body), self.transport, timeout: self.timeout, meter: self.meter)
    }

    /// `POST /__paycheck/<path>` with a JSON body; throws when the host refuses it.
    @discardableResult
    package func control(_ path: String, _ json: Value) async throws -> HTTPResponseData {
        let response = try await self.send("POST", ControlAPI.path(path), json: json)
        guard (200..<300).contains(response.status) else {
            throw StressFailure("POST \(ControlAPI.path(path)) answered \(response.status): \(response.text.prefix(300))")
        }
        return response
    }
}

/// Latencies of the requests a ``StressClient`` sent, in seconds.
package final class StressMeter: Sendable {
    private let latencies = Mutex<[Double]>([])

    /// Creates an empty meter.
    package init() {}

    /// Adds one request's latency.
    package func record(_ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        self.latencies.withLock { $0.append(seconds) }
    }

    /// Every latency recorded so far.
    package var values: [Double] { self.latencies.withLock { $0 } }
}

/// A step of a stress lifecycle that did not go as the provider documents.
struct StressFailure: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package var description: String
    /// Creates a failure.
    package init(_ description: String) { self.description = description }
}

extension Observation {
    /// The member at a dotted path of the JSON body (`payment.status`), as text.
    func text(_ path: String) -> String? {
        var value = self.body
        for part in path.split(separator: ".") { value = value?[String(part)] }
        return value?.stringValue ?? value?.wholeNumber.map(String.init)
    }

    /// Throws unless the status is `expected`.
    @discardableResult
    func require(_ expected: Int, _ what: String) throws -> Observation {
        guard self.status == expected else {
            throw StressFailure("\(what): expected HTTP \(expected), got \(self.status.map(String.init) ?? "none"): \(self.rawBody.prefix(300))")
        }
        return self
    }
}
