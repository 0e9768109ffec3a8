import Foundation
import Hummingbird
import HummingbirdTesting
import PayCheckMock
import Testing

@Suite("Mock host on a real socket", .timeLimit(.minutes(1)))
struct LiveServerTests {
    @Test("the application serves the control API and provider routes over .live")
    func liveApplication() async throws {
        let host = makeHost([FakeProvider(id: "fakepay")])
        try await host.makeApplication().test(.live) { client in
            let health = try await client.send(.get, "/__paycheck/health")
            #expect(health.status == .ok)
            #expect(health.object()["providers"] as? [String] == ["fakepay"])
            let session = try await client.send(.post, "/fakepay/api/session", body: "{}")
            #expect(session.status == .created)
            let port = try #require(client.port)
            #expect(host.baseURL.hasSuffix(":\(port)"))
        }
    }

    @Test("withRunningMock serves while the body runs and stops afterwards")
    func withRunningMockLifecycle() async throws {
        let host = makeHost([FakeProvider(id: "fakepay")])
        let port = try await withRunningMock(host) { baseURL in
            let port = try #require(URLComponents(string: baseURL)?.port)
            #expect(baseURL == "http://127.0.0.1:\(port)")
            #expect(host.baseURL == baseURL)
            let response = try await Self.get("/fakepay/api/time", port: port)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body ?? ByteBuffer()).contains(#""baseURL":"\#(baseURL)""#))
            return port
        }
        #expect(host.journal.entries(pathPrefix: "/fakepay/api/time").count == 1)
        await #expect(throws: (any Error).self) {
            _ = try await Self.get("/__paycheck/health", port: port)
        }
    }

    @Test("withRunningMock rethrows the body's error after stopping the server")
    func withRunningMockBodyError() async throws {
        let host = makeHost()
        await #expect(throws: FakeFailure.self) {
            try await withRunningMock(host) { _ in throw FakeFailure() }
        }
    }

    @Test("withRunningMock reports a port that cannot be bound instead of hanging")
    func portInUse() async throws {
        try await withRunningMock(makeHost()) { baseURL in
            let port = try #require(URLComponents(string: baseURL)?.port)
            await #expect(throws: (any Error).self) {
                try await withRunningMock(makeHost(), port: port) { _ in }
            }
        }
    }

    @Test("run stops with CancellationError when its task is cancelled")
    func runCancellation() async throws {
        let host = makeHost()
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let server = Task {
            try await host.run { port in continuation.yield(port) }
        }
        let port = try #require(await ports.first { _ in true })
        #expect(try await Self.get("/__paycheck/health", port: port).status == .ok)
        server.cancel()
        await #expect(throws: CancellationError.self) {
            try await server.value
        }
    }

    @Test("cancelling run lets a request in flight finish before the server stops")
    func gracefulShutdown() async throws {
        let host = makeHost([FakeProvider(id: "fakepay")])
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let server = Task {
            try await host.run { port in continuation.yield(port) }
        }
        let port = try #require(await ports.first { _ in true })
        _ = try await Self.post("/__paycheck/faults", body: #"{"path":"/fakepay","kind":"delay","delayMs":20}"#, port: port)
        async let inFlight = Self.get("/fakepay/api/time", port: port)
        // The journal records a request before its delay starts.
        while host.journal.entries(pathPrefix: "/fakepay").isEmpty {
            await Task.yield()
        }
        server.cancel()
        #expect(try await inFlight.status == .ok)
        await #expect(throws: CancellationError.self) {
            try await server.value
        }
    }

    @Test("a reset fault closes the connection without a response, then the route answers again")
    func resetFaultClosesConnection() async throws {
        let provider = FakeProvider(id: "fakepay")
        let host = makeHost([provider])
        try await withRunningMock(host) { baseURL in
            let port = try #require(URLComponents(string: baseURL)?.port)
            let injected = try await Self.post(
                "/__paycheck/faults",
                body: #"{"path":"/fakepay/api/session","kind":"reset"}"#,
                port: port
            )
            #expect(injected.status == .created)
            await #expect(throws: (any Error).self) {
                _ = try await Self.post("/fakepay/api/session", body: "{}", port: port)
            }
            let after = try await Self.post("/fakepay/api/session", body: "{}", port: port)
            #expect(after.status == .created)
        }
        #expect(provider.sessionCount == 1)
    }

    /// Sends one GET on a fresh connection.
    static func get(_ path: String, port: Int) async throws -> TestClient.Response {
        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(5))) {
            try await $0.get(path)
        }
    }

    /// Sends one POST on a fresh connection.
    static func post(_ path: String, body: String, port: Int) async throws -> TestClient.Response {
        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(5))) {
            try await $0.post(path, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
        }
    }
}
