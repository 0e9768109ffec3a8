import Foundation

/// Citations as PayCheck's users read them (in `paycheck explain`, in findings): PayCheck's research notes on each
/// provider (`providers.md`) and its design notes (`DESIGN.md`) are not part of the repository, so a citation of
/// them points at the page in the repository that carries those facts with their public sources instead —
/// `docs/providers/<provider>.md`, or `docs/architecture.md`. The provider's own documents stay as cited.
package enum Citation {
    /// `source` with every note citation replaced by the repository page; parts are separated by `;`.
    package static func forReaders(_ source: String, provider: String?) -> String {
        var parts: [String] = []
        for part in source.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            let shown: String
            if part.hasPrefix("providers.md") {
                shown = provider.map { "docs/providers/\($0).md" } ?? "docs/providers/"
            } else if part.hasPrefix("DESIGN.md") {
                shown = "docs/architecture.md"
            } else {
                shown = part
            }
            if !parts.contains(shown) { parts.append(shown) }
        }
        return parts.joined(separator: "; ")
    }

    /// `note` without its citations of the providers notes' sections (`(§4.4, §4.9)`, `§1.5`), which a user of the
    /// command does not have; the provider's page in docs/providers/ cites its sources. A parenthesis that held only
    /// citations goes; one with other words keeps them.
    package static func withoutSections(_ note: String) -> String {
        let section = #/(?:see\s+)?§\s?\d+(?:\.\d+)*[a-z]?/#
        var text = note.replacing(#/\s*\(([^()]*§[^()]*)\)/#) { match -> String in
            let rest = match.1.replacing(section, with: "").split(whereSeparator: { ",;".contains($0) })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return rest.isEmpty ? "" : " (" + rest.joined(separator: ", ") + ")"
        }
        text = text.replacing(section, with: "")
        return text.replacing(#/\s{2,}/#, with: " ").replacing(#/\s+([,;.])/#) { String($0.1) }.trimmingCharacters(in: .whitespaces)
    }
}
