import Foundation

/// Reads and writes `application/x-www-form-urlencoded` text (flat name/value pairs) and percent-encodes
/// path segments, for the runner, the adapters and the mocks alike.
public enum FormText {
    /// The characters left as they are: RFC 3986 unreserved.
    private static let unreserved: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()

    /// Percent-encodes every byte outside the unreserved set (also usable for one path segment).
    public static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `name=value&…` in the given order.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// The pairs of a form body in order; `+` is a space; `nil` when a percent escape is malformed.
    public static func decode(_ text: String) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(halves[0]) else { return nil }
            guard let value = halves.count > 1 ? unescape(halves[1]) : "" else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// One decoded component.
    private static func unescape(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
