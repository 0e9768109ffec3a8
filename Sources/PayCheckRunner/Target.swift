/// Where a run sends its requests (DESIGN.md §4).
package enum Target: Sendable, Hashable, CustomStringConvertible {
    /// The embedded mock host on 127.0.0.1, started for the run.
    case mock
    /// A live target: each provider's documented sandbox, or what a profile names (``LiveTarget``).
    case live(LiveTarget)
    /// Another base URL serving the mock layout: a standalone `paycheck mock`, a proxy.
    case url(String)

    /// The built-in sandbox target.
    package static let sandbox = Target.live(.sandbox)

    /// Parses `mock`, `sandbox` or `url=<base>`; a profile's target names are resolved by ``TargetProfile``.
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

    /// `mock`, the live target's name, or `url=<base>`.
    package var description: String {
        switch self {
        case .mock: "mock"
        case .live(let target): target.name
        case .url(let base): "url=\(base)"
        }
    }

    /// The short name used in reports: `mock`, `sandbox` (every live target), `url`.
    package var kind: String {
        switch self {
        case .mock: "mock"
        case .live: "sandbox"
        case .url: "url"
        }
    }

    /// The live target, if this is one.
    package var live: LiveTarget? {
        if case .live(let target) = self { target } else { nil }
    }

    /// Whether the target serves the PayCheck control API (payer/mock steps can run).
    var hasMockControl: Bool { live == nil }
}
