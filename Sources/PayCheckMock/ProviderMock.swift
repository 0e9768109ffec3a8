package import Foundation
package import Hummingbird
import PayCheckCore
package import PayCheckProviders

/// A stateful mock of one payment provider, hosted by ``MockHost``.
///
/// A provider mock serves its API under its adapter's ``Provider/mockBasePaths`` and answers the adapter's
/// declared ``Provider/controlActions`` at `/__paycheck/{id}/{kind}/{name}` (register them with
/// ``ControlActionRoutes``, so adapter and mock share one declaration). Every request it receives has already been
/// recorded in the journal and checked against injected faults by the host. Scope any middleware you add to your
/// own group, because middleware added to the router itself also wraps routes that are registered later.
package protocol ProviderMock: Sendable {
    /// The adapter this mock serves: the single source of the id, the mock credentials, the base paths and the
    /// control actions.
    var provider: any Provider { get }

    /// Every native state the mock's state machines can report; the registry's conformance test checks that the
    /// adapter's outcome mapping has a row for each (DESIGN.md §3: every native state maps to one outcome).
    var nativeStates: [String] { get }

    /// Adds this provider's routes to `router`.
    func register(on router: Router<BasicRequestContext>, environment: MockEnvironment)

    /// Forgets all state (sessions, idempotency keys, nonces); called by `POST /__paycheck/reset`.
    func reset() async

    /// What a `malformed` fault answers on this provider's routes (a default extension answers cut JSON).
    var malformedBody: MalformedBody { get }

    /// The provider's own error answer for a request the host refuses before routing it (a body over the size
    /// limit: 413, or too slow to arrive: 408); `now` is mock time. The default is the host's `{"error": …}`.
    func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData

    /// The provider's answer to a request under its base path that no route serves: `allowed` lists the methods its
    /// declared operations serve on that path (empty for an unknown path). The host adds `Allow` to a 405. The default
    /// is ``errorAnswer(status:message:now:)`` with 405 when `allowed` has methods, else 404.
    func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData

    /// Applies the host's limits (the state store's capacity); the default does nothing.
    func apply(_ limits: MockLimits)

    /// The resources the mock's state holds and has evicted, for `GET /__paycheck/limits`; `nil` when unbounded.
    var stateUsage: (entries: Int, evicted: Int)? { get }
}

extension ProviderMock {
    /// The provider id: the URL prefix and the name in `/__paycheck/health`.
    package var id: String { provider.id }

    /// Nothing to apply.
    package func apply(_ limits: MockLimits) {}

    /// Not bounded.
    package var stateUsage: (entries: Int, evicted: Int)? { nil }

    /// The host's generic `{"error": message}`.
    package func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData {
        HTTPResponseData.json(status: status, .object(["error": .string(message)]))
    }

    /// 405 for a known path with another method, else 404, in the provider's error shape.
    package func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData {
        allowed.isEmpty
            ? errorAnswer(status: 404, message: "No resource at \(method) \(path)" + Self.doubledSegmentHint(path), now: now)
            : errorAnswer(status: 405, message: "The method \(method) is not supported for \(path); use \(allowed.joined(separator: ", "))", now: now)
    }

    /// A hint for a path whose version segment is doubled (`/yuno/v1/v1/payments`): the client's base URL already ended
    /// in it. Empty otherwise.
    package static func doubledSegmentHint(_ path: String) -> String {
        let segments = path.split(separator: "/")
        for (a, b) in zip(segments, segments.dropFirst()) where a == b && a.first == "v" && a.dropFirst().allSatisfy(\.isNumber) {
            return " (the path has '/\(a)/\(b)/': the base URL given to the client already ends in '/\(a)'; give it without)"
        }
        return ""
    }

    /// What a `malformed` fault answers on this provider's routes: by default a JSON body cut short.
    package var malformedBody: MalformedBody { MalformedBody(contentType: "application/json", body: #"{"truncated": "#) }
}

/// A body a client cannot read in the provider's own codec (``FaultKind/malformed``).
package struct MalformedBody: Sendable {
    /// The content type sent with it (the provider's usual one, so only the body is wrong).
    package var contentType: String
    /// The body.
    package var body: String

    /// Creates a malformed body.
    package init(contentType: String, body: String) {
        self.contentType = contentType
        self.body = body
    }
}

/// Serves a provider mock's declared control actions, one `POST` route per ``ControlAction``.
package enum ControlActionRoutes {
    /// Answers one control action.
    package typealias Handler = @Sendable (Request) async throws -> Response

    /// Registers `handlers`, keyed `"<kind>/<name>"` (e.g. `payer/pay`), at the routes of the provider's declared
    /// actions. A declared action without a handler answers 500 naming it, so the registry's conformance test
    /// finds it; a handler for an undeclared action is not served (lint would refuse the step anyway).
    package static func register(
        _ provider: any Provider, handlers: [String: Handler], on router: Router<BasicRequestContext>
    ) {
        for action in provider.controlActions {
            let key = action.kind.rawValue + "/" + action.name
            let path = ControlAPI.action(provider: provider.id, kind: action.kind, name: action.name)
            if let handler = handlers[key] {
                router.post(RouterPath(path)) { request, _ in try await handler(request) }
            } else {
                router.post(RouterPath(path)) { _, _ -> Response in
                    throw MockHTTPError(.internalServerError, "the \(provider.id) mock declares '\(key)' but serves no handler for it")
                }
            }
        }
    }
}
