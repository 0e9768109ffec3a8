package import Foundation
import PayCheckCore
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
        /// When it started on the run's clock: a replay's `now()` counts from it, so a value made from the time
        /// (`{{ now('+10m') }}`) is the recorded one. `nil` in a recording made before cases kept it.
        package var startedAt: Date?

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
/// random numbers; a request that is not the next recorded one (another method, path, query or body, but for the
/// provider's ``Provider/replayNoise``) is an error naming the first difference, so a suite that changed since the
/// recording shows where.
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

/// Answers a case's requests from its recorded exchanges, in order, once each is the recorded request.
package final class ReplayTransport: HTTPTransport {
    private let exchanges: [Exchange]
    private let position = Mutex(0)
    private let directory: String
    /// The body fields that may differ from the recording (``Provider/replayNoise``).
    private let noise: [String]

    package init(_ record: RunRecording.Case, directory: String, noise: [String] = []) {
        self.exchanges = record.exchanges
        self.directory = directory
        self.noise = noise
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
        let contentType = request.headers.first { $0.name.lowercased() == "content-type" }?.value
        if let difference = Self.bodyDifference(recorded: recorded.requestBody, sent: request.body, contentType: contentType, noise: noise) {
            throw TransportError(.other, "replay of \(directory): exchange \(index + 1) of this case (\(sent)) now sends \(difference)")
        }
        if let error = recorded.error { throw TransportError(.other, "replayed: \(error)") }
        return HTTPResponseData(
            status: recorded.status ?? 0, headers: recorded.responseHeaders.map { ($0.name, $0.value) }, body: Array(recorded.responseBody.utf8))
    }

    /// The first difference between a recorded request body and the one sent now, field by field for JSON and form
    /// bodies (a field `noise` names may differ; a value the recording masked may be anything), as text otherwise;
    /// `nil` when they are the same. A body the recording cut (over 64 KiB) is not compared.
    static func bodyDifference(recorded: String, sent: [UInt8], contentType: String?, noise: [String]) -> String? {
        let now = String(decoding: sent, as: UTF8.self)
        guard recorded != now, sent.count <= ExchangeRecorder.bodyLimit else { return nil }
        let form = contentType?.lowercased().contains("x-www-form-urlencoded") == true
        let parse: (String) -> Value? = { text in form ? FormText.decode(text) : text.isEmpty ? .null : JSONText.parse(text) }
        guard let old = parse(recorded), let new = parse(now) else {
            return matches(recorded: recorded, sent: now) ? nil : "another body: \(Value.string(now).brief), where the recording has \(Value.string(recorded).brief)"
        }
        let was = ValuePaths.leaves(old), is_ = ValuePaths.leaves(new)
        for path in Set(was.keys).union(is_.keys).sorted() where !ValuePaths.isNoise(path, noise) {
            let name = path.isEmpty ? "the body" : "'\(path)'"
            switch (was[path], is_[path]) {
            case (let before?, let after?):
                if !same(recorded: before, sent: after) { return "\(name) = \(after.brief), where the recording has \(before.brief)" }
            case (let before?, nil): return "no \(name), where the recording has \(before.brief)"
            case (nil, let after?): return "\(name) = \(after.brief), which the recording does not have"
            case (nil, nil): continue
            }
        }
        return nil
    }

    /// Whether a sent value is the recorded one: equal (a number whatever its JSON spelling), or text matching a
    /// recorded value the recording masked.
    private static func same(recorded: Value, sent: Value) -> Bool {
        if recorded == sent { return true }
        switch (recorded, sent) {
        case (.int, .double), (.double, .int): return recorded.numberValue == sent.numberValue
        default: break
        }
        // A masked value (a secret, a card number but its last four digits) stands for any text or number.
        guard case .string(let text) = recorded, text.contains(Redactor.mask) else { return false }
        switch sent {
        case .string(let value): return matches(recorded: text, sent: value)
        case .int(let number): return matches(recorded: text, sent: String(number))
        default: return false
        }
    }

    /// Whether a sent path is the recorded one; where the recording masked a secret (``Redactor/mask``), any text
    /// stands in for it.
    static func matches(recorded: String, sent: String) -> Bool {
        let recorded = recorded.removingPercentEncoding ?? recorded, sent = sent.removingPercentEncoding ?? sent
        guard recorded.contains(Redactor.mask) else { return recorded == sent }
        var rest = Substring(sent)
        // Split on each mask character, not on the whole mask: a card number keeps its last four digits and masks the
        // rest, so a 13- to 19-digit one has a run of 9 to 15 of them, not a multiple of the mask's six.
        let pieces = recorded.split(separator: Redactor.maskCharacter, omittingEmptySubsequences: false).map(String.init)
        for (index, piece) in pieces.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if index == pieces.count - 1 {
                return rest.hasSuffix(piece)
            } else if !piece.isEmpty {
                // Two masks in a row (a card number's twelve masked digits) leave an empty piece between them.
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
