import Hummingbird

extension MockHost {
    /// Builds the Hummingbird application that serves this host on `host:port`.
    ///
    /// Add it to your own `ServiceGroup`, or test it with HummingbirdTesting's `.live` framework.
    /// - Parameters:
    ///   - host: The address to bind; defaults to the loopback interface.
    ///   - port: The port to bind; `0` picks a free one.
    ///   - onRunning: Called with the bound port once the server accepts connections.
    public func makeApplication(
        host: String = "127.0.0.1",
        port: Int = 0,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: ConnectionFaultResponder(router: self.makeRouter().buildResponder()),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "PayCheckMock"),
            onServerRunning: { [self] channel in
                let boundPort = channel.localAddress?.port ?? port
                self.didBind(host: host, port: boundPort)
                await onRunning(boundPort)
            },
            logger: self.logger
        )
    }

    /// Serves the mock on `host:port` until the calling task is cancelled.
    ///
    /// On cancellation the listener closes, open connections finish their current request and
    /// close, and the method throws `CancellationError`.
    /// - Parameters:
    ///   - host: The address to bind; defaults to the loopback interface.
    ///   - port: The port to bind; `0` picks a free one.
    ///   - handleSignals: Whether SIGINT and SIGTERM shut the server down gracefully (for the
    ///     standalone `paycheck mock` command); then the method returns normally after a signal.
    ///     Leave it `false` when embedding, so the signals keep their usual meaning for the process.
    ///   - onRunning: Called with the bound port once the server accepts connections.
    public func run(
        host: String = "127.0.0.1",
        port: Int = 0,
        handleSignals: Bool = false,
        onRunning: @escaping @Sendable (Int) async -> Void
    ) async throws {
        let application = self.makeApplication(host: host, port: port, onRunning: onRunning)
        if handleSignals {
            try await application.runService()
        } else {
            try await application.runService(gracefulShutdownSignals: [])
        }
        try Task.checkCancellation()
    }
}
