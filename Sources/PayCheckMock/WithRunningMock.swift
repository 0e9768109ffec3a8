import Logging
package import NIOSSL

/// Serves `host` on `127.0.0.1:port` while `body` runs, then shuts the server down.
///
/// The server runs in a child task; `body` is called with the base URL (e.g.
/// `http://127.0.0.1:54321`) once the port is bound, and the server is cancelled and awaited
/// before this function returns, whether `body` returned or threw.
/// - Parameters:
///   - host: The mock host to serve.
///   - port: The port to bind; `0` (the default) picks a free one.
///   - body: The work to do while the mock is reachable.
/// - Returns: The value returned by `body`.
/// - Throws: The error thrown by `body`, or the server's error if it could not start.
package func withRunningMock<T: Sendable>(
    _ host: MockHost,
    port: Int = 0,
    tls: TLSConfiguration? = nil,
    _ body: @Sendable (String) async throws -> T
) async throws -> T {
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            defer { portContinuation.finish() }
            try await host.run(host: "127.0.0.1", port: port, tls: tls) { bound in
                portContinuation.yield(bound)
            }
        }
        guard let bound = await ports.first(where: { _ in true }) else {
            // The server ended before binding: surface its error (bind failure or cancellation).
            try await group.next()
            throw MockHostError(message: "the mock server stopped before it was listening on port \(port)")
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body("\(tls == nil ? "http" : "https")://127.0.0.1:\(bound)"))
        } catch {
            result = .failure(error)
        }
        group.cancelAll()
        do {
            try await group.waitForAll()
        } catch is CancellationError {
            // The expected end of a cancelled server.
        } catch {
            host.logger.warning("mock server stopped with an error", metadata: ["error": "\(error)"])
        }
        return try result.get()
    }
}

/// An error of the mock host itself, such as a server that could not start.
package struct MockHostError: Error, CustomStringConvertible, Sendable {
    /// A lower-case, human-readable explanation.
    package var message: String

    /// Creates an error with `message`.
    package init(message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { self.message }
}
