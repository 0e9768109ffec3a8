import PayCheckCore

/// Recognises paths of the control API under `/__paycheck/` (spelled once, in Core's ``ControlAPI``).
enum ControlPath {
    /// The control API prefix.
    static let root = ControlAPI.root

    /// Whether `path` belongs to the control API.
    static func isControl(_ path: String) -> Bool {
        ControlAPI.contains(path)
    }

    /// Whether `path` is the echo endpoint or below it.
    static func isEcho(_ path: String) -> Bool {
        path == self.root + "/echo" || path.hasPrefix(self.root + "/echo/")
    }

    /// Whether `path` is the key-value store or below it.
    static func isKeyValue(_ path: String) -> Bool {
        path == self.root + "/kv" || path.hasPrefix(self.root + "/kv/")
    }
}
