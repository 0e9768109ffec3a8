import Foundation
import PayCheckRunner

extension SuiteResult {
    /// The suite name, or the file name when the suite has none (CI consumers crash on nameless suites).
    var displayName: String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { return name }
        let base = fileName
        return base.isEmpty ? "(unnamed suite)" : base
    }

    /// The last path component of `file`, e.g. `lifecycle.yaml`.
    var fileName: String {
        String(file.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(file))
    }

    /// The file name without its `.yaml`/`.yml` (or any other) extension, e.g. `lifecycle`.
    var fileStem: String {
        let base = fileName
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base.isEmpty ? "suite" : base }
        return String(base[..<dot])
    }

    /// The provider id, or `http` for raw HTTP suites.
    var providerOrHTTP: String {
        guard let provider, !provider.isEmpty else { return "http" }
        return provider
    }
}
