import Foundation
import PayCheckProviders
import Synchronization

/// Sends requests through the transport and keeps a record of each exchange as sent and received, plus the
/// secrets discovered while a case runs (derived signatures, `secret: true` captures). The records are unredacted:
/// they leave the case only through ``CaseExecutor/redactExchanges(of:)``.
final class ExchangeRecorder: Sendable {
    private struct State {
        var exchanges: [Exchange] = []
        var redactor: Redactor
    }

    private let state: Mutex<State>
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date

    init(transport: any HTTPTransport, redactor: Redactor, now: @escaping @Sendable () -> Date = { Date() }) {
        self.transport = transport
        self.now = now
        self.state = Mutex(State(redactor: redactor))
    }

    /// The current redactor (base secrets plus those added during the case).
    var redactor: Redactor { state.withLock { $0.redactor } }

    /// Adds a secret value for the rest of the case; `false` when it is too short to be redacted.
    @discardableResult
    func addSecret(_ value: String) -> Bool { state.withLock { $0.redactor.add(value) } }

    /// Takes the exchanges recorded since the last call.
    func takeExchanges() -> [Exchange] {
        state.withLock { s in
            defer { s.exchanges = [] }
            return s.exchanges
        }
    }

    /// Sends a request and records the exchange, response or error.
    func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        // The attempts a live target's transport retries are noted on the exchange (``RetryLog``).
        let retries = RetryLog()
        do {
            let response = try await RetryLog.$current.withValue(retries) { try await transport.send(request, timeout: timeout) }
            record(request, response: response, error: nil, duration: elapsed(), retries: retries.entries)
            return response
        } catch let error as TransportError {
            record(request, response: nil, error: error.message, duration: elapsed(), retries: retries.entries)
            throw error
        }
    }

    private func record(_ request: HTTPRequestData, response: HTTPResponseData?, error: String?, duration: Double, retries: [String]) {
        var exchange = Exchange(
            method: request.method,
            url: request.url,
            requestHeaders: request.headers,
            requestBody: ExchangeRecorder.text(request.body),
            status: response?.status,
            responseHeaders: response?.headers ?? [],
            responseBody: response.map { ExchangeRecorder.text($0.body) } ?? "",
            duration: duration,
            error: error)
        exchange.retries = retries
        state.withLock { $0.exchanges.append(exchange) }
    }

    /// The bytes of a body a transcript (and a recording) keeps.
    static let bodyLimit = 64 * 1024

    /// Body text for transcripts, cut at ``bodyLimit``.
    static func text(_ bytes: [UInt8]) -> String {
        let limit = bodyLimit
        if bytes.count <= limit { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.prefix(limit), as: UTF8.self) + "\n… (\(bytes.count - limit) more bytes)"
    }
}
