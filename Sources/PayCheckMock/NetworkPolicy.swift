import PayCheckCore
import Foundation

/// Who may drive the mock host, and where it may send notifications: safe by default.
///
/// - The control API answers only requests whose `Host` names loopback, the bound address or a configured name
///   (no DNS rebinding), and only `POST`s that say `Content-Type: application/json` (a web page cannot send one
///   cross-origin without a CORS preflight, which the mock never grants).
/// - When the host listens beyond loopback, the control API also needs the per-start ``controlToken``.
/// - Notifications and webhooks go only to loopback, or to the hosts named in ``notifyHosts``, so the mock cannot be
///   used to probe the network.
package struct NetworkPolicy: Sendable {
    /// The token the control API requires in ``ControlAPI/controlTokenHeader``; `nil` when it listens on loopback.
    package var controlToken: String?
    /// `Host` names accepted by the control API besides loopback and the bound address.
    package var allowedHostNames: [String]
    /// Hosts that notifications and webhooks may reach besides loopback.
    package var notifyHosts: [String]

    /// Creates a policy; the default is loopback only.
    package init(controlToken: String? = nil, allowedHostNames: [String] = [], notifyHosts: [String] = []) {
        self.controlToken = controlToken
        self.allowedHostNames = allowedHostNames.map { $0.lowercased() }
        self.notifyHosts = notifyHosts.map { $0.lowercased() }
    }

    /// Whether `host` (a name or an IP literal, brackets allowed) is the loopback interface.
    package static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether `host` is a wildcard address that listens on every interface.
    package static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"].contains(host)
    }

    /// Why a control request is refused, or `nil` when it may proceed.
    /// - Parameters:
    ///   - method: the request method.
    ///   - authority: the `Host` header (`name:port`), `nil` when absent (not a browser).
    ///   - contentType: the `Content-Type` header.
    ///   - token: the ``ControlAPI/controlTokenHeader`` header.
    ///   - boundHost: the address the host is bound to.
    ///   - requiresJSON: whether this route takes a JSON body (every control `POST` but the echo helper).
    func controlProblem(
        method: String, authority: String?, contentType: String?, token: String?, boundHost: String?, requiresJSON: Bool
    ) -> String? {
        if let authority, let host = Self.hostName(ofAuthority: authority),
            !(Self.isLoopback(host) || host == boundHost?.lowercased() || self.allowedHostNames.contains(host))
        {
            return "the control API answers only requests for this host (Host '\(authority)' is not loopback, the bound address or a name given with --allow-host)"
        }
        if let controlToken = self.controlToken, token != controlToken {
            return "the control API needs the token printed when the mock started, in the \(ControlAPI.controlTokenHeader) header (paycheck run --control-token)"
        }
        if requiresJSON, method == "POST" {
            let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard mediaType == "application/json" else {
                return "control requests must be 'Content-Type: application/json' (got \(contentType.map { "'\($0)'" } ?? "none"))"
            }
        }
        return nil
    }

    /// Why the mock may not send a notification to `url`, or `nil` when it may.
    package func outboundProblem(url: String) -> String? {
        guard let host = Self.hostName(ofURL: url) else { return nil }  // malformed URLs fail later, with their own error
        if Self.isLoopback(host) || self.notifyHosts.contains(host) { return nil }
        return
            "notification host '\(host)' is not loopback; the mock sends notifications only to loopback unless the host is allowed with `paycheck mock --allow-notify-host \(host)`"
    }

    /// The lower-cased host of an authority `name:port`, `[v6]:port` or `name`.
    static func hostName(ofAuthority authority: String) -> String? {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            guard let end = text.firstIndex(of: "]") else { return nil }
            return String(text[text.startIndex...end])
        }
        return text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    /// The lower-cased host of an absolute URL, `nil` when it has none.
    static func hostName(ofURL url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPart = authority.split(separator: "@").last.map(String.init) ?? ""
        return hostPart.isEmpty ? nil : self.hostName(ofAuthority: hostPart)
    }
}

/// The host's ``OutboundHTTP`` under its ``NetworkPolicy``: a request to a host the policy does not allow is refused
/// before anything is sent (the webhook log records the refusal as a failed attempt).
struct PolicedOutbound: OutboundHTTP {
    let base: any OutboundHTTP
    let policy: NetworkPolicy

    func post(url: String, headers: [(String, String)], body: [UInt8]) async throws -> Int {
        try await self.send(method: "POST", url: url, headers: headers, body: body).status
    }

    func postForReply(url: String, headers: [(String, String)], body: [UInt8]) async throws -> (status: Int, body: [UInt8]) {
        try await self.send(method: "POST", url: url, headers: headers, body: body)
    }

    func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8]) {
        if let problem = self.policy.outboundProblem(url: url) { throw OutboundHTTPError(message: "refused: " + problem) }
        return try await self.base.send(method: method, url: url, headers: headers, body: body)
    }
}
