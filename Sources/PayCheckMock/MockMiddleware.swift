import Hummingbird
import PayCheckCore

/// The host's outermost middleware: body limit, journaling, fault injection, echo and JSON 404s.
///
/// It wraps every route and the router's not-found responder. A request that matched no route
/// reaches it with `context.endpointPath == nil`, which is how unknown paths get JSON errors.
struct MockMiddleware: RouterMiddleware {
    /// The request context of the host's router.
    typealias Context = BasicRequestContext

    /// The largest request body accepted; larger bodies are answered with 413.
    static let maximumBodyBytes = 2 * 1024 * 1024
    /// The response header that marks an injected connection reset for ``ConnectionFaultResponder``.
    static let resetMarkerHeader = HTTPFields.Element.Name("x-paycheck-fault")!
    /// The marker header's value for a connection reset.
    static let resetMarkerValue = "reset"

    /// Mock time, for journal timestamps.
    let clock: MockClock
    /// Where requests are recorded.
    let journal: RequestJournal
    /// Pending injected faults.
    let faults: FaultRegistry
    /// Ends `delay` faults when the host stops.
    var shutdown = ShutdownSignal()
    /// Who may drive the control API.
    var policy = NetworkPolicy()
    /// The address the host is bound to, once bound.
    var boundHost: @Sendable () -> String? = { nil }
    /// Each provider's path prefixes with the secret fields its adapter declares (lower-cased): the journal masks
    /// them in headers and in JSON and form bodies.
    var secretFields: [(prefix: String, names: Set<String>)] = []

    /// Handles one request; see the type's documentation.
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        let path = request.uri.path
        let isControl = ControlPath.isControl(path)
        let isJournaled = !isControl || ControlPath.isEcho(path) || ControlPath.isKeyValue(path)
        if isControl, let problem = self.policy.controlProblem(
            method: request.method.rawValue, authority: request.headers[Self.hostHeader] ?? request.head.authority,
            contentType: request.headers[.contentType], token: request.headers[Self.controlTokenHeader],
            boundHost: self.boundHost(), requiresJSON: !ControlPath.isEcho(path))
        {
            return MockResponse.error(.forbidden, problem)
        }

        let body: [UInt8]
        do {
            let buffer = try await request.collectBody(upTo: Self.maximumBodyBytes)
            body = Array(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            if isJournaled { self.record(request, body: []) }
            return MockResponse.error(
                .contentTooLarge,
                "request body of '\(request.method.rawValue) \(path)' exceeds the mock's limit of 2 MiB"
            )
        }
        if isJournaled { self.record(request, body: body) }

        // Journaled routes (provider routes, echo, key-value) can be given faults; the rest of the
        // control API never is.
        if isJournaled {
            if let fault = self.faults.consume(path: path) {
                switch fault {
                case .status(let code):
                    return MockResponse.error(HTTPResponse.Status(code: code), "injected fault")
                case .malformed:
                    return MockResponse.text("{\"truncated\": ", status: .ok)
                case .delay(let milliseconds):
                    // Cut short when the host stops: nobody waits for this answer any more.
                    await self.shutdown.sleep(for: .milliseconds(milliseconds))
                    try Task.checkCancellation()
                case .reset:
                    var response = MockResponse.error(.badGateway, "injected fault: connection reset")
                    response.headers[Self.resetMarkerHeader] = Self.resetMarkerValue
                    return response
                }
            }
        }

        if isControl {
            if ControlPath.isEcho(path) {
                return try EchoResponder.response(to: request, body: body)
            }
            guard context.endpointPath != nil else {
                return MockResponse.error(.notFound, "unknown control route '\(request.method.rawValue) \(path)'")
            }
            return try await self.route(request, context: context, next: next)
        }

        guard context.endpointPath != nil else {
            return MockResponse.error(.notFound, "no mock route for '\(request.method.rawValue) \(path)'")
        }
        return try await self.route(request, context: context, next: next)
    }

    /// Calls the matched route, turning unexpected errors into a JSON 500 instead of an empty body.
    private func route(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.error("mock route failed", metadata: ["error": "\(error)"])
            return MockResponse.error(
                .internalServerError,
                "internal mock error in '\(request.method.rawValue) \(request.uri.path)': \(error)"
            )
        }
    }

    /// Appends `request` with `body` to the journal, stamped with mock time, with the provider's declared secret
    /// fields masked.
    private func record(_ request: Request, body: [UInt8]) {
        let path = request.uri.path
        let secrets = self.secretFields.first { path == $0.prefix || path.hasPrefix($0.prefix + "/") }?.names ?? []
        let recorded = RecordedRequest(
            method: request.method.rawValue,
            path: path,
            query: request.uri.query ?? "",
            headers: request.headers.map { RecordedRequest.Header(name: $0.name.rawName, value: $0.value) },
            body: body,
            receivedAt: self.clock.now()
        )
        self.journal.record(secrets.isEmpty ? recorded : recorded.masking(secrets))
    }

    /// The `Host` header, for requests whose authority was not lifted out of the fields.
    static let hostHeader = HTTPFields.Element.Name("Host")!
    /// The header of ``ControlAPI/controlTokenHeader``.
    static let controlTokenHeader = HTTPFields.Element.Name(ControlAPI.controlTokenHeader)!
}
