import Foundation

/// Checks an absolute http(s) URL before anything sends to it, so that a URL from a suite, a control request or a
/// notification setting is refused with a message instead of reaching the HTTP stack (which traps on a port above
/// 65535).
package enum HTTPURLCheck {
    /// Why `url` cannot be sent to, or `nil` when it is an http(s) URL with a host and a port in 1–65535.
    package static func problem(_ url: String) -> String? {
        guard let components = URLComponents(string: url) else { return "'\(url)' is not a valid URL" }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "'\(url)' is not an http:// or https:// URL"
        }
        guard let host = components.host, !host.isEmpty else { return "'\(url)' has no host" }
        if let port = components.port, !(1...65535).contains(port) {
            return "'\(url)' has port \(port); a port is 1 to 65535"
        }
        return nil
    }
}
