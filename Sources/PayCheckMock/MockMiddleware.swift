import Hummingbird
import Synchronization
import PayCheckCore
import PayCheckProviders
import Logging

/// The host's outermost middleware: body limit, journaling, fault injection, echo and JSON 404s.
///
/// It wraps every route and the router's not-found responder. A request that matched no route
/// reaches it with `context.endpointPath == nil`, which is how unknown paths get JSON errors.
struct MockMiddleware: RouterMiddleware {
    /// The request context of the host's router.
    typealias Context = BasicRequestContext

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
    /// Each provider's path prefixes with what a `malformed` fault answers there.
    var malformedBodies: [(prefix: String, body: MalformedBody)] = []
    /// The body size limit and the body read timeout.
    var limits = MockLimits()
    /// Watches the body read timeout of every request that is reading its body.
    let bodyDeadlines = DeadlineSweeper()
    /// Each provider's path prefixes with its mock, whose own error shape answers a refused body.
    var errorAnswers: [(prefix: String, mock: any ProviderMock)] = []

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
        if isControl,
            let problem = self.policy.controlProblem(
                method: request.method.rawValue, authority: request.headers[Self.hostHeader] ?? request.head.authority,
                contentType: request.headers[.contentType], token: request.headers[Self.controlTokenHeader],
                boundHost: self.boundHost(), requiresJSON: !ControlPath.isEcho(path))
        {
            return MockResponse.error(.forbidden, problem)
        }

        let body: [UInt8]
        switch await self.collectBody(of: &request) {
        case .collected(let bytes):
            body = bytes
        case let refused:
            let response = self.refusal(refused, request: request, path: path)
            guard isJournaled else { return response }
            return try await self.journaled(request, body: [], response)
        }
        // A merchant's request is journaled once answered, with the answer; any other before it is routed.
        let fromMerchant = isJournaled && ScopedRequest.scope != nil
        if isJournaled, !fromMerchant { self.record(request, body: body) }

        // Journaled routes (provider routes, echo, key-value) can be given faults; the rest of the
        // control API never is.
        let fault = isJournaled ? self.faults.consume(method: request.method.rawValue, path: path) : nil
        let findings = fromMerchant ? MerchantFindings() : nil
        var response: Response
        func routed() async throws -> Response {
            if let fault, let answer = try await self.answer(for: fault, path: path) { return answer }
            return try await self.routeOrRespond(request, path: path, isControl: isControl, body: body, context: context, next: next)
        }
        do {
            // Only a merchant's request collects findings: the others skip the task-local binding.
            if let findings {
                response = try await MerchantFindings.$current.withValue(findings) { try await routed() }
            } else {
                response = try await routed()
            }
        } catch let error as any HTTPResponseError where fromMerchant {
            _ = try await self.journaled(request, body: body, error.response(from: request, context: context), findings: findings)
            throw error
        }
        if fromMerchant { response = try await self.journaled(request, body: body, response, findings: findings) }
        if fault?.kind == .lost { return Self.resetResponse() }
        guard let fault, [.truncated, .contentType, .slowDrip, .field].contains(fault.kind) else { return response }
        return try await Self.apply(fault, to: response, shutdown: self.shutdown)
    }

    /// Journals a merchant's request with the mock's `response` (whose body is read and put back); answers it.
    @inline(never)
    private func journaled(_ request: Request, body: [UInt8], _ response: Response, findings: MerchantFindings? = nil) async throws -> Response {
        guard ScopedRequest.scope != nil else {
            self.record(request, body: body)
            return response
        }
        let collected = CollectedBody()
        try await response.body.write(CollectingBodyWriter(target: collected))
        let bytes = collected.buffer.withLock { $0 }
        let text = String(decoding: bytes.readableBytesView.prefix(RecordedRequest.maximumBodyBytes), as: UTF8.self)
        let answer = RecordedRequest.Answer(status: response.status.code, contentType: response.headers[.contentType], body: text)
        let (found, served) = self.judged(request, body: body, answer: answer, answerBytes: bytes, from: findings ?? MerchantFindings())
        self.record(request, body: body, answer: answer, findings: found, served: served)
        var answered = response
        answered.body = ResponseBody(byteBuffer: bytes)
        return answered
    }

    /// The answer ``ConnectionFaultResponder`` turns into a closed connection (a 502 where there is no connection to
    /// close, as in the in-process router).
    private static func resetResponse() -> Response {
        var response = MockResponse.error(.badGateway, "injected fault: connection reset")
        response.headers[Self.resetMarkerHeader] = Self.resetMarkerValue
        return response
    }

    /// What a fault answers instead of the route (`nil`: route the request, after a `delay` once it passed).
    @inline(never)
    private func answer(for fault: Fault, path: String) async throws -> Response? {
        switch fault.kind {
        case .status:
            var response = MockResponse.error(HTTPResponse.Status(code: fault.number("status", 503)), "injected fault")
            if let seconds = fault.parameters["retryAfter"]?.wholeNumber { response.headers[.retryAfter] = String(seconds) }
            return response
        case .malformed:
            let malformed =
                self.malformedBodies.first { path.hasPrefix($0.prefix) }?.body
                ?? MalformedBody(contentType: "application/json", body: #"{"truncated": "#)
            return Response(
                status: .ok, headers: [.contentType: malformed.contentType],
                body: ResponseBody(byteBuffer: ByteBuffer(string: malformed.body)))
        case .empty:
            return Response(status: .ok, headers: [.contentLength: "0"])
        case .delay:
            let jitter = fault.number("jitterMs")
            let milliseconds = fault.number("delayMs") + (jitter > 0 ? Int.random(in: 0...jitter) : 0)
            // Cut short when the host stops: nobody waits for this answer any more.
            await self.shutdown.sleep(for: .milliseconds(milliseconds))
            try Task.checkCancellation()
            return nil
        case .reset:
            return Self.resetResponse()
        case .truncated, .contentType, .slowDrip, .lost, .field:
            return nil  // applied to the routed answer
        case .duplicate, .outOfOrder, .delayedDelivery, .tamperedSignature, .replay, .receiverTimeout:
            return nil  // webhook faults never match a request
        }
    }

    /// The answer to a body that could not be read whole: 413 over the size limit, 408 too slow, 400 broken off.
    @inline(never)
    private func refusal(_ read: BodyRead, request: Request, path: String) -> Response {
        let what = "request body of '\(request.method.rawValue) \(path)'"
        switch read {
        case .collected:
            return self.refusal(500, "\(what) was read", path: path)
        case .tooLarge:
            let bytes = self.limits.requestBodyBytes
            let limit = bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MiB" : "\(bytes) bytes"
            return self.refusal(413, "\(what) exceeds the mock's limit of \(limit)", path: path)
        case .tooSlow:
            return self.refusal(408, "\(what) did not arrive within \(self.limits.bodyReadTimeoutSeconds)s", path: path)
        case .broken:
            return self.refusal(400, "\(what) could not be read", path: path)
        }
    }

    /// Routes a request (echo, control or provider route), or answers the JSON 404 of an unknown path.
    @inline(never)
    private func routeOrRespond(
        _ request: Request, path: String, isControl: Bool, body: [UInt8], context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if isControl {
            if ControlPath.isEcho(path) {
                return try EchoResponder.response(to: request, body: body)
            }
            guard context.endpointPath != nil else {
                return MockResponse.error(.notFound, "unknown control route '\(request.method.rawValue) \(path)'")
            }
            return try await self.route(request, context: context, next: next)
        }

        guard context.endpointPath != nil else { return self.unrouted(request.method.rawValue, path: path) }
        return try await self.route(request, context: context, next: next)
    }

    /// A request no route serves. Under a provider's base path it is answered in that provider's error shape: 405 with
    /// `Allow` when one of its declared operations has this path with another method, else 404 — one rule for every
    /// provider (which status each provider gives is in its page; Yuno documents 405 `UNSUPPORTED_METHOD`, §3.7).
    /// Elsewhere the host's JSON 404.
    @inline(never)
    private func unrouted(_ method: String, path: String) -> Response {
        guard let owner = self.errorAnswers.first(where: { path == $0.prefix || path.hasPrefix($0.prefix + "/") }) else {
            return MockResponse.error(.notFound, "no mock route for '\(method) \(path)'")
        }
        let relative = String(path.dropFirst(owner.prefix.count))
        let allowed = Set(owner.mock.provider.operations.filter { Self.path(relative, matches: $0.path) }.map(\.method)).sorted()
        var response = owner.mock.unrouted(method: method, path: path, allowed: allowed, now: self.clock.now()).response
        if response.status == .methodNotAllowed { response.headers[.allow] = allowed.joined(separator: ", ") }
        return response
    }

    /// Whether `path` is an instance of an operation's path template (`/v2/payments/{id}`).
    static func path(_ path: String, matches template: String) -> Bool {
        let given = path.split(separator: "/", omittingEmptySubsequences: false), pattern = template.split(separator: "/", omittingEmptySubsequences: false)
        guard given.count == pattern.count else { return false }
        return zip(given, pattern).allSatisfy { segment, part in
            part.hasPrefix("{") && part.hasSuffix("}") ? !segment.isEmpty : segment == part
        }
    }

    /// Calls the matched route, turning unexpected errors into a JSON 500 instead of an empty body.
    @inline(never)
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

    /// Appends `request` with `body` (and the mock's answer to a merchant's request) to the journal, stamped with
    /// mock time and the request's scope; the journal hands it out with the provider's declared secret fields masked
    /// and every card number cut to its last four digits.
    @inline(never)
    private func record(
        _ request: Request, body: [UInt8], answer: RecordedRequest.Answer? = nil, findings: [Finding] = [], served: RecordedRequest.Served? = nil
    ) {
        let path = request.uri.path
        let secrets = self.secretFields.first { path == $0.prefix || path.hasPrefix($0.prefix + "/") }?.names ?? []
        var recorded = RecordedRequest(
            method: request.method.rawValue,
            path: path,
            query: request.uri.query ?? "",
            headers: request.headers.map { RecordedRequest.Header(name: $0.name.rawName, value: $0.value) },
            body: body,
            receivedAt: self.clock.now()
        )
        if let scope = ScopedRequest.scope {
            (recorded.scope, recorded.origin, recorded.answer, recorded.findings, recorded.served) = (scope.id, .merchant, answer, findings, served)
        } else if let named = request.headers[ClockScopeMiddleware.header], ClockScope(named) != nil {
            recorded.scope = named
        }
        self.journal.record(recorded, secrets: secrets)
    }

    /// What the mock did with a merchant's request, written once while it serves it: the findings (those its
    /// provider's mock reported, and its provider's rule checks), and the provider and operation that served it
    /// with, for an operation that creates a payment answered 2xx, the payment's id, amount and currency.
    private func judged(
        _ request: Request, body: [UInt8], answer: RecordedRequest.Answer, answerBytes: ByteBuffer, from sink: MerchantFindings
    ) -> (findings: [Finding], served: RecordedRequest.Served?) {
        let path = request.uri.path, method = request.method.rawValue
        let owner = self.errorAnswers.first { path == $0.prefix || path.hasPrefix($0.prefix + "/") }
        let text = String(decoding: body, as: UTF8.self)
        var parsed = JSONText.parse(text)
        if parsed == nil, (request.headers[.contentType] ?? "").contains("x-www-form-urlencoded") {
            var members: [String: Value] = [:]
            for pair in FormText.decodePairs(text) { members[pair.name] = .string(pair.value) }
            parsed = .object(members)
        }
        let relative = owner.map { String(path.dropFirst($0.prefix.count)) } ?? path
        let merchantRequest = MerchantRequest(
            method: method, path: relative, headers: request.headers.map { ($0.name.rawName, $0.value) }, body: parsed)
        let findings = sink.findings(on: merchantRequest, provider: owner?.mock.provider, label: "\(method) \(path)", sequence: 0)
        guard let provider = owner?.mock.provider else { return (findings, nil) }
        let matching = provider.operations.filter { $0.route.matches(method: method, path: relative) }
        let operation = matching.first { $0.createdPayment != nil } ?? matching.first
        var served = RecordedRequest.Served(provider: provider.id, operation: operation?.name)
        if let operation, let idPath = operation.createdPayment, (200..<300).contains(answer.status),
            let answered = JSONText.parse(Array(answerBytes.readableBytesView)),
            let id = (try? ValuePath(parsing: idPath))?.lookup(in: answered), id != .null
        {
            served.payment = id.interpolated
            if let paths = operation.createdAmount, let parsed {
                let amount = (try? ValuePath(parsing: paths.amount))?.lookup(in: parsed)
                served.amount = amount?.number ?? amount?.stringValue.flatMap(Double.init)
                served.currency = (try? ValuePath(parsing: paths.currency))?.lookup(in: parsed)?.interpolated
            }
        }
        return (findings, served)
    }

    /// Applies a fault that changes a routed answer: its body cut in half, its content type replaced, or its body
    /// sent in small pieces with pauses.
    // Not inlined: inlined into `handle`, it crashes the 6.3 optimizer while it splits the coroutine (release builds).
    @inline(never)
    static func apply(_ fault: Fault, to response: Response, shutdown: ShutdownSignal) async throws -> Response {
        let collected = CollectedBody()
        try await response.body.write(CollectingBodyWriter(target: collected))
        let bytes = collected.buffer.withLock { $0 }
        var headers = response.headers
        headers[.contentLength] = nil
        switch fault.kind {
        case .truncated:
            let cut = bytes.getSlice(at: bytes.readerIndex, length: bytes.readableBytes / 2) ?? ByteBuffer()
            return Response(status: response.status, headers: headers, body: ResponseBody(byteBuffer: cut))
        case .contentType:
            headers[.contentType] = fault.parameters["contentType"]?.stringValue ?? "text/html"
            return Response(status: response.status, headers: headers, body: ResponseBody(byteBuffer: bytes))
        case .field:
            // An answer that is not a JSON object is left as it is.
            let path = (fault.parameters["field"]?.stringValue ?? "").split(separator: ".").map(String.init)
            guard let value = fault.parameters["value"], let json = JSONText.parse(Array(buffer: bytes)), case .object = json else {
                return Response(status: response.status, headers: headers, body: ResponseBody(byteBuffer: bytes))
            }
            let changed = Self.setting(path[...], to: value, in: json)
            return Response(status: response.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONText.encodeBytes(changed))))
        default:
            // slowDrip: pieces of 16 bytes, `dripMs` apart (real time, bounded by FaultSpec), ended early on shutdown.
            let pause = fault.number("dripMs", 100)
            return Response(
                status: response.status, headers: headers,
                body: ResponseBody { writer in
                    var remaining = bytes
                    while remaining.readableBytes > 0, let piece = remaining.readSlice(length: min(16, remaining.readableBytes)) {
                        try await writer.write(piece)
                        if remaining.readableBytes > 0 { await shutdown.sleep(for: .milliseconds(pause)) }
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// `json` with the member at `path` (object keys, created where missing) set to `value`.
    static func setting(_ path: ArraySlice<String>, to value: Value, in json: Value) -> Value {
        guard let key = path.first else { return value }
        guard case .object(var members) = json else { return json }
        members[key] = setting(path.dropFirst(), to: value, in: members[key] ?? .object([:]))
        return .object(members)
    }

    /// How reading a request body ended.
    private enum BodyRead {
        case collected([UInt8])
        case tooLarge
        case tooSlow
        case broken
    }

    /// Reads the whole body (so routes can read it again), within the size limit and the body read timeout. A request
    /// that declares no body (neither `Content-Length` nor `Transfer-Encoding`, RFC 9112 §6.3) has none to wait for;
    /// any other body races its deadline, watched by ``bodyDeadlines``.
    @inline(never)
    private func collectBody(of request: inout Request) async -> BodyRead {
        let limit = self.limits.requestBodyBytes
        let stream = request.body
        let outcome: Result<ByteBuffer, any Error>?
        if request.headers[.contentLength] == nil, request.headers[.transferEncoding] == nil {
            do { outcome = .success(try await stream.collect(upTo: limit)) } catch { outcome = .failure(error) }
        } else {
            let deadlines = self.bodyDeadlines
            let deadline = deadlines.register(after: .seconds(self.limits.bodyReadTimeoutSeconds))
            outcome = await withTaskGroup(of: Result<ByteBuffer, any Error>?.self) { group in
                group.addTask {
                    do { return .success(try await stream.collect(upTo: limit)) } catch { return .failure(error) }
                }
                group.addTask {
                    _ = await deadlines.wait(deadline)
                    return nil
                }
                let first = await group.next() ?? nil
                if first == nil { group.cancelAll() } else { deadlines.finish(deadline) }
                return first
            }
        }
        switch outcome {
        case .success(let buffer)?:
            request.body = RequestBody(buffer: buffer)
            return .collected(Array(buffer.readableBytesView))
        case .failure(let error as any HTTPResponseError)? where error.status == .contentTooLarge:
            return .tooLarge
        case .failure?:
            return .broken
        case nil:
            return .tooSlow
        }
    }

    /// A refusal before routing: in the provider's own error shape on its routes, the host's elsewhere.
    private func refusal(_ status: Int, _ message: String, path: String) -> Response {
        if let owner = self.errorAnswers.first(where: { path == $0.prefix || path.hasPrefix($0.prefix + "/") }) {
            return owner.mock.errorAnswer(status: status, message: message, now: self.clock.now()).response
        }
        return MockResponse.error(HTTPResponse.Status(code: status), message)
    }

    /// The `Host` header, for requests whose authority was not lifted out of the fields.
    static let hostHeader = HTTPFields.Element.Name("Host")!
    /// The header of ``ControlAPI/controlTokenHeader``.
    static let controlTokenHeader = HTTPFields.Element.Name(ControlAPI.controlTokenHeader)!
}

/// A response body collected into one buffer (for faults that rewrite a routed answer).
private final class CollectedBody: Sendable {
    let buffer = Mutex(ByteBuffer())
}

/// Writes a response body into a ``CollectedBody``.
private struct CollectingBodyWriter: ResponseBodyWriter {
    let target: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.target.buffer.withLock { _ = $0.writeBuffer(&buffer) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
