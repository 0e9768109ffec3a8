import Foundation
import Hummingbird
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import Synchronization

/// The adapter side of ``FakeProvider``: an id and nothing to sign or map.
struct FakeAdapter: Provider {
    /// The id.
    let id: String
    /// None.
    var credentialFields: [CredentialField] { [] }
    /// None.
    var mockCredentials: [String: String] { [:] }
    /// Not a real provider.
    var sandboxBaseURL: String { "http://127.0.0.1:9" }
    /// Empty.
    var outcomeMapping: OutcomeMapping { OutcomeMapping([]) }
    /// Empty.
    var errorCatalog: ErrorCatalog { ErrorCatalog([]) }
    /// None.
    var operations: [ProviderOperation] { [] }
    /// Signs nothing.
    func authorize(_ request: inout OutgoingRequest, context: ProviderContext) throws {}
}

/// A minimal stateful provider mock: counts sessions and remembers resets.
final class FakeProvider: ProviderMock {
    /// The URL prefix.
    let id: String
    /// Sessions created since the last reset.
    private let sessions = Mutex(0)
    /// How many times `reset()` was called.
    private let resets = Mutex(0)

    /// None.
    var nativeStates: [String] { [] }

    /// The adapter with the same id.
    var provider: any Provider { FakeAdapter(id: id) }

    /// Creates a provider served under `/{id}`.
    init(id: String) {
        self.id = id
    }

    /// Sessions created since the last reset.
    var sessionCount: Int { self.sessions.withLock { $0 } }
    /// How many times the host reset this provider.
    var resetCount: Int { self.resets.withLock { $0 } }

    /// `POST /{id}/api/session` creates a session; `GET /{id}/api/time` echoes mock time and base URL;
    /// `GET /__paycheck/{id}/sessions` is a provider control route.
    func register(on router: Router<BasicRequestContext>, environment: MockEnvironment) {
        router.post("\(self.id)/api/session") { _, _ -> Response in
            let number = self.sessions.withLock { count in
                count += 1
                return count
            }
            return Self.json(#"{"requestId":\#(number)}"#, status: .created)
        }
        router.get("\(self.id)/api/time") { _, _ -> Response in
            let now = environment.clock.now().timeIntervalSince1970
            return Self.json(#"{"epoch":\#(Int(now)),"baseURL":"\#(environment.baseURL())"}"#, status: .ok)
        }
        router.get("__paycheck/\(self.id)/sessions") { _, _ -> Response in
            Self.json(#"{"count":\#(self.sessionCount)}"#, status: .ok)
        }
        router.get("\(self.id)/api/fail") { _, _ -> Response in
            throw FakeFailure()
        }
    }

    /// Forgets sessions and counts the reset.
    func reset() async {
        self.sessions.withLock { $0 = 0 }
        self.resets.withLock { $0 += 1 }
    }

    /// A JSON response.
    private static func json(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }
}

/// An unexpected error thrown by a fake route.
struct FakeFailure: Error, CustomStringConvertible {
    /// A fixed description.
    var description: String { "fake failure" }
}
