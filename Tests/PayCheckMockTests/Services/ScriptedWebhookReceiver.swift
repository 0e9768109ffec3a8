import PayCheckMock
import Synchronization

/// A fake ``WebhookTransport``: answers each attempt with the next scripted reply (the last one repeats) and
/// records what was sent.
final class ScriptedWebhookReceiver: WebhookTransport {
    /// One scripted answer.
    enum Script: Sendable {
        /// Answer with this status and body.
        case reply(Int, String)
        /// Fail without an answer, with this message.
        case failure(String)
    }

    /// One recorded attempt.
    struct Received: Sendable, Equatable {
        /// The target URL.
        var url: String
        /// The headers as `name: value`.
        var headers: [String]
        /// The body as text.
        var body: String
    }

    /// An error standing for a connection failure.
    struct Refused: Error, CustomStringConvertible {
        /// The message.
        var description: String
    }

    /// The remaining script and what was received.
    private let state: Mutex<(script: [Script], received: [Received])>

    /// Creates a receiver answering with `script`, in order.
    init(_ script: [Script]) {
        self.state = Mutex((script, []))
    }

    /// Records the attempt and answers with the next scripted reply.
    func send(url: String, headers: [(name: String, value: String)], body: [UInt8]) async throws -> WebhookReply {
        let next = self.state.withLock { state -> Script in
            state.received.append(
                Received(
                    url: url, headers: headers.map { "\($0.name): \($0.value)" },
                    body: String(decoding: body, as: UTF8.self)))
            let next = state.script.first ?? .reply(200, "")
            if state.script.count > 1 { state.script.removeFirst() }
            return next
        }
        switch next {
        case .reply(let status, let text):
            return WebhookReply(status: status, body: Array(text.utf8))
        case .failure(let message):
            throw Refused(description: message)
        }
    }

    /// Every attempt received so far.
    var received: [Received] {
        self.state.withLock { $0.received }
    }
}
