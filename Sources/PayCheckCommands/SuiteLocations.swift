package import Foundation

/// Where suites and merchant packs are found besides the paths given: the working folder (`Suites/`, `suites/`,
/// `Packs/`), `PAYCHECK_PACKS`, and what `scripts/install.sh` put beside the binary.
package struct SuiteLocations: Sendable {
    /// The folder the relative defaults are looked for in; empty for the current folder, whose paths stay relative.
    package var folder: String
    /// `PAYCHECK_PACKS`, when set and not empty.
    package var packsVariable: String?
    /// The built-in suites installed with the binary (`PREFIX/share/paycheck/Suites`), when there are.
    package var installedSuites: URL?

    /// Locations as given.
    package init(folder: String = "", packsVariable: String? = nil, installedSuites: URL? = nil) {
        self.folder = folder
        self.packsVariable = packsVariable.flatMap { $0.isEmpty ? nil : $0 }
        self.installedSuites = installedSuites
    }

    /// The locations of a binary at `executable` run in the current folder with `environment`.
    package init(executable: URL?, environment: [String: String]) {
        self.init(packsVariable: environment["PAYCHECK_PACKS"], installedSuites: Self.installedSuites(beside: executable))
    }

    /// The built-in suites that `scripts/install.sh` puts beside an installed binary (`PREFIX/bin/paycheck` →
    /// `PREFIX/share/paycheck/Suites`). They are found rather than embedded: suites are plain files a merchant reads,
    /// copies and edits, and `include:` steps resolve relative to the file.
    package static func installedSuites(beside executable: URL?) -> URL? {
        guard let binary = executable?.resolvingSymlinksInPath() else { return nil }
        let folder = binary.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/paycheck/Suites", isDirectory: true)
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue ? folder : nil
    }

    /// `path` in the working folder (itself, relative, when the folder is the current one).
    func local(_ path: String) -> String {
        folder.isEmpty ? path : folder + "/" + path
    }

    /// The folders of the built-in merchant packs installed beside the binary (`PREFIX/share/paycheck/Packs`).
    var installedPacks: URL? {
        installedSuites?.deletingLastPathComponent().appendingPathComponent("Packs", isDirectory: true)
    }

    /// Where packs are looked for, first first: `PAYCHECK_PACKS`, `Packs/` here, the packs installed with the binary.
    var packFolders: [String] {
        [packsVariable, local("Packs"), installedPacks?.path].compactMap { $0 }
    }

    /// The folder of pack `name` in the first of ``packFolders`` that has it; `nil` when none has.
    package func packFolder(_ name: String) -> String? {
        guard !name.contains("/"), !name.hasPrefix(".") else { return nil }
        return packFolders.map { $0 + "/" + name }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The names of the packs available.
    package var packNames: [String] {
        Array(Set(packFolders.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }))
            .filter { !$0.hasPrefix(".") }.sorted()
    }
}
