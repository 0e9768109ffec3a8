import PayCheckCore
import PayCheckProviders

/// Adds a run's clock scope header (and the mock's control token, if any) to every request sent to the mock host (URLs under `prefix`), so runs that
/// share a standalone mock keep their own mock time (DESIGN.md §5).
struct ScopedTransport: HTTPTransport {
    /// The transport that sends.
    let base: any HTTPTransport
    /// The mock host's base URL.
    let prefix: String
    /// The scope id.
    let scope: String
    /// The mock's control token, when it needs one.
    var controlToken: String? = nil

    /// Sends `request`, with the scope header when it goes to the mock host.
    func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
        guard request.url.hasPrefix(prefix) else { return try await base.send(request, timeout: timeout) }
        var scoped = request
        scoped.headers.removeAll { $0.name.lowercased() == ControlAPI.clockScopeHeader.lowercased() }
        scoped.headers.append((ControlAPI.clockScopeHeader, scope))
        if let controlToken {
            scoped.headers.removeAll { $0.name.lowercased() == ControlAPI.controlTokenHeader.lowercased() }
            scoped.headers.append((ControlAPI.controlTokenHeader, controlToken))
        }
        return try await base.send(scoped, timeout: timeout)
    }
}
