import Foundation
import PayCheckCore
package import PayCheckProviders
import Synchronization

/// How a live target reaches one provider (``LiveTarget``): at most `rateLimit` requests per period and
/// `concurrency` at once; service failures — no connection, no answer in time, a closed connection, 429 and 5xx —
/// retried with a doubling backoff (a `Retry-After` honoured, both capped), never an answer that is merely not what a
/// suite expects; and a host that cannot be reached, once every retry failed, fails the rest of the run's requests to
/// it at once with the same reason, so the run goes on with the other providers instead of waiting on it case by case.
package final class LiveTransport: HTTPTransport {
    private struct State {
        /// When the next request may start under the rate limit.
        var nextStart: Date?
        /// Why the host cannot be reached (no connection, or no answer in time), once known.
        var unreachable: (cause: TransportError.Cause, reason: String)?
        /// Requests in flight, and the requests waiting for a place.
        var inFlight = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let base: any HTTPTransport
    private let provider: String
    private let endpoint: LiveTarget.Endpoint
    private let retry: LiveTarget.RetryPolicy
    private let clock: any RunnerClock
    private let state = Mutex(State())

    package init(base: any HTTPTransport, provider: String, endpoint: LiveTarget.Endpoint, retry: LiveTarget.RetryPolicy, clock: any RunnerClock) {
        self.base = base
        self.provider = provider
        self.endpoint = endpoint
        self.retry = retry
        self.clock = clock
    }

    /// Sends `request`, retrying service failures.
    package func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
        var attempt = 1
        while true {
            if let unreachable = state.withLock({ $0.unreachable }) {
                throw TransportError(unreachable.cause, "\(request.method) \(request.url): not sent: \(unreachable.reason)")
            }
            let wait: Double
            do {
                let response = try await sendOnce(request, timeout: timeout)
                guard attempt < retry.attempts, response.status == 429 || response.status >= 500 else { return response }
                let asked = retryAfter(response)
                wait = asked ?? backoff(attempt)
                RetryLog.current?.add(
                    "attempt \(attempt): HTTP \(response.status), retried after \(Value.format(wait))s" + (asked == nil ? "" : " (its Retry-After)"))
            } catch let error as TransportError where error.cause == .tls {
                // Not retried: the same certificate fails the same way. The rest of the run's requests to the host
                // fail at once with the reason, instead of each printing the handshake's failure again.
                state.withLock { $0.unreachable = $0.unreachable ?? (error.cause, "\(provider)'s host: \(error.message)") }
                throw error
            } catch let error as TransportError {
                guard attempt < retry.attempts else {
                    // A host that takes no connection, or takes it and never answers, every attempt: the rest of the
                    // run's requests to it fail at once with the reason instead of each waiting out its own timeouts.
                    let reason: String? =
                        switch error.cause {
                        case .connect: "\(provider)'s host could not be reached (\(attempt) attempts): \(error.message)"
                        case .timeout: "\(provider)'s host did not answer in time (\(attempt) attempts of \(Value.format(timeout))s): \(error.message)"
                        case .closed, .tls, .other: nil
                        }
                    if let reason { state.withLock { $0.unreachable = $0.unreachable ?? (error.cause, reason) } }
                    throw attempt == 1 ? error : TransportError(error.cause, error.message + " (after \(attempt) attempts)")
                }
                wait = backoff(attempt)
                RetryLog.current?.add("attempt \(attempt): \(error.message), retried after \(Value.format(wait))s")
            }
            try await clock.sleep(seconds: wait)
            attempt += 1
        }
    }

    /// The wait before retry `attempt + 1`: the backoff doubled per attempt, capped.
    private func backoff(_ attempt: Int) -> Double {
        min(retry.cap, retry.backoff * Double(1 << min(attempt - 1, 20)))
    }

    /// A `Retry-After` of seconds or an HTTP date, capped; `nil` when there is none.
    private func retryAfter(_ response: HTTPResponseData) -> Double? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds.isFinite, seconds >= 0 { return min(retry.cap, seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: value) else { return nil }
        return min(retry.cap, max(0, date.timeIntervalSince(clock.now())))
    }

    /// One attempt, within the rate limit and the concurrency limit.
    private func sendOnce(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
        if let rate = endpoint.rateLimit {
            let now = clock.now()
            let start = state.withLock { s in
                let start = max(now, s.nextStart ?? now)
                s.nextStart = start.addingTimeInterval(rate.interval)
                return start
            }
            if start > now { try await clock.sleep(seconds: start.timeIntervalSince(now)) }
        }
        guard let limit = endpoint.concurrency else { return try await base.send(request, timeout: timeout) }
        await enter(limit)
        defer { leave() }
        return try await base.send(request, timeout: timeout)
    }

    /// Waits for a place among the `limit` requests in flight.
    private func enter(_ limit: Int) async {
        await withCheckedContinuation { continuation in
            let admitted = state.withLock { s in
                guard s.inFlight < limit else {
                    s.waiting.append(continuation)
                    return false
                }
                s.inFlight += 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Gives the place to the next waiting request, or frees it.
    private func leave() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard !s.waiting.isEmpty else {
                s.inFlight -= 1
                return nil
            }
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// The attempts ``LiveTransport`` retried while one exchange was sent, with why: the transcript shows them above the
/// exchange. The recorder that sends the exchange sets ``current`` for the send.
final class RetryLog: Sendable {
    /// The log of the exchange being sent, if one is kept.
    @TaskLocal static var current: RetryLog?

    private let lines = Mutex<[String]>([])

    /// Notes one retried attempt.
    func add(_ line: String) { lines.withLock { $0.append(line) } }

    /// Every retried attempt, in order.
    var entries: [String] { lines.withLock { $0 } }
}
