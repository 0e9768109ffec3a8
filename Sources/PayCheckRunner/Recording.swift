import Foundation
package import PayCheckProviders
import Synchronization

/// What `--record DIR` keeps of a run, case by case: every exchange as the reports redact it (with its timing), the
/// random numbers the case drew (so `uuid()` and `random()` give the same values when it is replayed), and its
/// verdict. ``RecordingFile`` (PayCheckReports) writes and reads it; `--target replay=DIR` replays it (``Replay``).
package final class RunRecording: Sendable {
    /// One case of the run.
    package struct Case: Sendable {
        /// The suite's file, name and provider, and the case's name: its identity across runs.
        package var file: String
        package var suite: String
        package var provider: String?
        package var name: String
        /// How it ended, and why it was skipped.
        package var verdict: Verdict
        package var skipReason: SkipReason?
        /// The random numbers it drew, in order.
        package var random: [UInt64]
        /// Its exchanges, in order, redacted.
        package var exchanges: [Exchange]

        /// Creates a record.
        package init(
            file: String, suite: String, provider: String?, name: String, verdict: Verdict, skipReason: SkipReason?, random: [UInt64],
            exchanges: [Exchange]
        ) {
            self.file = file
            self.suite = suite
            self.provider = provider
            self.name = name
            self.verdict = verdict
            self.skipReason = skipReason
            self.random = random
            self.exchanges = exchanges
        }

        /// The identity of a case across runs.
        package var key: String { Replay.key(file: file, suite: suite, name: name) }
    }

    private let cases = Mutex<[Case]>([])

    /// Creates an empty recording.
    package init() {}

    /// Adds a finished case.
    func add(_ record: Case) { cases.withLock { $0.append(record) } }

    /// Every case, by file, suite and name.
    package var all: [Case] {
        cases.withLock { $0 }.sorted { ($0.file, $0.suite, $0.name) < ($1.file, $1.suite, $1.name) }
    }
}

/// A recording played back (`--target replay=DIR`): each case gets its recorded answers in order and its recorded
/// random numbers; a request that is not the next recorded one (another method or path) is an error saying what the
/// recording has instead, so a suite that changed since the recording shows where.
package struct Replay: Sendable {
    /// Where the recording was read from.
    package var directory: String
    /// The recorded cases by ``key(file:suite:name:)``.
    package var cases: [String: RunRecording.Case]
    /// Whether the answers come from the recording (`--target replay=`); `false` replays only the random numbers,
    /// for `paycheck drift`, which sends the same requests to the mock.
    package var answers: Bool

    /// Creates a replay.
    package init(directory: String, cases: [RunRecording.Case], answers: Bool = true) {
        self.answers = answers
        self.directory = directory
        self.cases = Dictionary(cases.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The identity of a case across runs.
    package static func key(file: String, suite: String, name: String) -> String { "\(file)\u{1F}\(suite)\u{1F}\(name)" }
}

/// Draws random numbers from a recorded sequence, then from `fallback` once it is used up; or records what
/// `fallback` gives.
final class RandomTape: Sendable {
    private let state: Mutex<(replayed: [UInt64], next: Int, drawn: [UInt64])>
    private let fallback: @Sendable () -> UInt64

    init(replaying values: [UInt64] = [], fallback: @escaping @Sendable () -> UInt64) {
        self.state = Mutex((values, 0, []))
        self.fallback = fallback
    }

    /// The next number.
    func next() -> UInt64 {
        let replayed = state.withLock { s -> UInt64? in
            guard s.next < s.replayed.count else { return nil }
            defer { s.next += 1 }
            return s.replayed[s.next]
        }
        let value = replayed ?? fallback()
        state.withLock { $0.drawn.append(value) }
        return value
    }

    /// Every number drawn so far.
    var drawn: [UInt64] { state.withLock { $0.drawn } }
}

/// Answers a case's requests from its recorded exchanges, in order.
package final class ReplayTransport: HTTPTransport {
    private let exchanges: [Exchange]
    private let position = Mutex(0)
    private let directory: String

    package init(_ record: RunRecording.Case, directory: String) {
        self.exchanges = record.exchanges
        self.directory = directory
    }

    package func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
        let index = position.withLock { p in
            defer { p += 1 }
            return p
        }
        let sent = "\(request.method) \(Self.path(request.url))"
        guard index < exchanges.count else {
            throw TransportError(.other, "replay of \(directory): this case now sends \(sent), but the recording has only \(exchanges.count) exchange(s) for it")
        }
        let recorded = exchanges[index]
        let expected = "\(recorded.method) \(Self.path(recorded.url))"
        guard recorded.method == request.method, Self.matches(recorded: Self.path(recorded.url), sent: Self.path(request.url)) else {
            throw TransportError(.other, "replay of \(directory): exchange \(index + 1) of this case is now \(sent); the recording has \(expected)")
        }
        if let error = recorded.error { throw TransportError(.other, "replayed: \(error)") }
        return HTTPResponseData(
            status: recorded.status ?? 0, headers: recorded.responseHeaders.map { ($0.name, $0.value) }, body: Array(recorded.responseBody.utf8))
    }

    /// Whether a sent path is the recorded one; where the recording masked a secret (``Redactor/mask``), any text
    /// stands in for it.
    static func matches(recorded: String, sent: String) -> Bool {
        let recorded = recorded.removingPercentEncoding ?? recorded, sent = sent.removingPercentEncoding ?? sent
        guard recorded.contains(Redactor.mask) else { return recorded == sent }
        var rest = Substring(sent)
        let pieces = recorded.components(separatedBy: Redactor.mask)
        for (index, piece) in pieces.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if index == pieces.count - 1 {
                return rest.hasSuffix(piece)
            } else {
                guard let range = rest.range(of: piece) else { return false }
                rest = rest[range.upperBound...]
            }
        }
        return true
    }

    /// The path and query of a URL, without scheme and host (a replay may use other base URLs).
    package static func path(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
    }
}
