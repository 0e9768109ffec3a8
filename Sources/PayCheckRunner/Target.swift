/// Where a run sends its requests (DESIGN.md §4).
package enum Target: Sendable, Hashable, CustomStringConvertible {
    /// The embedded mock host on 127.0.0.1, started for the run.
    case mock
    /// Each provider's documented sandbox; credentials from the environment.
    case sandbox
    /// Another base URL serving the mock layout: a standalone `paycheck mock`, a proxy.
    case url(String)

    /// Parses `mock`, `sandbox` or `url=<base>`.
    package init?(parsing text: String) {
        switch text {
        case "mock": self = .mock
        case "sandbox": self = .sandbox
        default:
            guard text.hasPrefix("url="), text.count > 4 else { return nil }
            var base = String(text.dropFirst(4))
            while base.hasSuffix("/") { base.removeLast() }
            guard base.hasPrefix("http://") || base.hasPrefix("https://") else { return nil }
            self = .url(base)
        }
    }

    /// `mock`, `sandbox` or `url=<base>`.
    package var description: String {
        switch self {
        case .mock: "mock"
        case .sandbox: "sandbox"
        case .url(let base): "url=\(base)"
        }
    }

    /// The short name used in reports: `mock`, `sandbox`, `url`.
    package var kind: String {
        switch self {
        case .mock: "mock"
        case .sandbox: "sandbox"
        case .url: "url"
        }
    }

    /// Whether the target serves the PayCheck control API (payer/mock steps can run).
    package var hasMockControl: Bool {
        switch self {
        case .mock, .url: true
        case .sandbox: false
        }
    }
}
