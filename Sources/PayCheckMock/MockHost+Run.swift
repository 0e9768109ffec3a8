package import Hummingbird
package import HummingbirdTLS
package import NIOSSL
import HummingbirdCore
import ServiceLifecycle
import UnixSignals

extension MockHost {
    /// Builds the Hummingbird application that serves this host on `host:port`.
    ///
    /// Add it to your own `ServiceGroup`, or test it with HummingbirdTesting's `.live` framework.
    /// - Parameters:
    ///   - host: The address to bind; defaults to the loopback interface.
    ///   - port: The port to bind; `0` picks a free one.
    ///   - tls: Serve HTTPS with this server configuration (a certificate, and a CA when clients must present one).
    ///   - onRunning: Called with the bound port once the server accepts connections.
    /// - Throws: NIOSSL's error when the TLS configuration cannot be used.
    package func makeApplication(
        host: String = "127.0.0.1",
        port: Int = 0,
        tls: TLSConfiguration? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        // Slow headers and idle keep-alive connections are closed after the idle timeout (MockLimits).
        let http1 = HTTPServerBuilder.http1(configuration: .init(idleTimeout: .seconds(Int64(self.limits.idleTimeoutSeconds))))
        return Application(
            responder: ConnectionFaultResponder(router: self.makeRouter().buildResponder(), scheme: tls == nil ? "http" : "https"),
            server: try tls.map { try .tls(http1, tlsConfiguration: $0) } ?? http1,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "PayCheckMock"),
            onServerRunning: { [self] channel in
                let boundPort = channel.localAddress?.port ?? port
                self.didBind(host: host, port: boundPort, secure: tls != nil)
                await onRunning(boundPort)
            },
            logger: self.logger
        )
    }

    /// Serves the mock on `host:port` until the calling task is cancelled.
    ///
    /// Due scheduler jobs also run as real time passes (``runScheduler(every:)``) for as long as the server runs.
    ///
    /// Cancellation triggers a graceful shutdown: the listener closes, requests in flight are
    /// answered (those waiting on a `delay` fault at once), idle connections close, and then the method
    /// throws `CancellationError`.
    /// - Parameters:
    ///   - host: The address to bind; defaults to the loopback interface.
    ///   - port: The port to bind; `0` picks a free one.
    ///   - handleSignals: Whether SIGINT and SIGTERM shut the server down gracefully (for the
    ///     standalone `paycheck mock` command); then the method returns normally after a signal.
    ///     Leave it `false` when embedding, so the signals keep their usual meaning for the process.
    ///   - tls: Serve HTTPS with this server configuration.
    ///   - onRunning: Called with the bound port once the server accepts connections.
    /// - Throws: `CancellationError` after a cancellation, or the server's error (e.g. the port is taken).
    package func run(
        host: String = "127.0.0.1",
        port: Int = 0,
        handleSignals: Bool = false,
        tls: TLSConfiguration? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void
    ) async throws {
        var configuration = ServiceGroupConfiguration(
            services: [try self.makeApplication(host: host, port: port, tls: tls, onRunning: onRunning)],
            gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [],
            logger: self.logger
        )
        // A graceful shutdown waits for requests in flight at most this long, then cancels them (a client holding a
        // half-sent body cannot keep the mock from exiting). No `maximumCancellationDuration`: past it ServiceGroup
        // ends the process with a fatal error, which would take an embedding test run down with it.
        configuration.maximumGracefulShutdownDuration = .seconds(self.limits.shutdownGraceSeconds)
        let serviceGroup = ServiceGroup(configuration: configuration)
        let (cancellations, cancellation) = AsyncStream.makeStream(of: Void.self)
        // The server runs in its own task so that cancelling the caller does not cancel it outright
        // (which would drop connections mid-request and log errors); instead the caller's
        // cancellation is turned into a graceful shutdown. The task is always awaited below.
        let server = Task {
            try await Self.serve(serviceGroup, shuttingDownOn: cancellations) { await self.runScheduler() }
        }
        let shutdown = self.shutdown
        let outcome = await withTaskCancellationHandler {
            await server.result
        } onCancel: {
            // Requests waiting on a delay fault answer at once, so the graceful shutdown does not wait for them.
            shutdown.fire()
            cancellation.yield()
        }
        cancellation.finish()
        // After a cancellation, errors from the shutdown (e.g. a group stopped before it started)
        // are reported as the cancellation itself.
        try Task.checkCancellation()
        try outcome.get()
    }

    /// Which task of ``serve(_:shuttingDownOn:)`` finished.
    private enum ServeTask {
        /// The service group returned.
        case server
        /// The shutdown trigger returned.
        case trigger
        /// The scheduler tick returned.
        case ticker
    }

    /// Runs `serviceGroup` and shuts it down gracefully when `cancellations` yields; runs `tick` (until cancelled)
    /// alongside for as long as the group runs.
    private static func serve(
        _ serviceGroup: ServiceGroup,
        shuttingDownOn cancellations: AsyncStream<Void>,
        tick: @escaping @Sendable () async -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: ServeTask.self) { group in
            group.addTask {
                await tick()
                return .ticker
            }
            group.addTask {
                try await serviceGroup.run()
                return .server
            }
            group.addTask {
                if await cancellations.first(where: { _ in true }) != nil {
                    await serviceGroup.triggerGracefulShutdown()
                }
                return .trigger
            }
            while let finished = try await group.next() {
                if finished == .server {
                    group.cancelAll()
                }
            }
        }
    }
}
