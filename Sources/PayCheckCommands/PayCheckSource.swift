/// Where the CI jobs `paycheck init` writes get PayCheck's source: the git remote and commit this binary was built from,
/// stamped by the BuildInfo plugin (`buildSource`, `buildCommit`), so a job builds exactly the PayCheck that wrote it.
package struct PayCheckSource: Equatable, Sendable {
    /// The git URL a CI runner can clone PayCheck from; nil when the binary knows none (built from a tree without an
    /// `origin` remote, or from a clone of a local folder).
    var url: String?
    /// The commit to build; nil when the binary was built outside a git checkout.
    var commit: String?
    /// Whether the tree the binary was built from had uncommitted changes (a job builds the commit without them).
    var hadChanges = false

    /// A source as given.
    package init(url: String?, commit: String?, hadChanges: Bool = false) {
        self.url = url
        self.commit = commit
        self.hadChanges = hadChanges
    }

    /// The source the BuildInfo plugin stamped: `buildSource` (empty when there was no remote) and `buildCommit`
    /// (`unknown` outside a git checkout, `+changes` after a commit with uncommitted changes).
    package init(buildSource: String, buildCommit: String) {
        let local = buildSource.isEmpty || buildSource.hasPrefix("/") || buildSource.hasPrefix(".") || buildSource.hasPrefix("file:")
        url = local ? nil : buildSource
        hadChanges = buildCommit.hasSuffix("+changes")
        let commit = hadChanges ? String(buildCommit.dropLast("+changes".count)) : buildCommit
        self.commit = commit.isEmpty || commit == "unknown" ? nil : commit
    }

    /// The one-line warning init prints when the jobs it wrote need an edit before they can build PayCheck, or build
    /// another tree than this binary's; nil when they run as written.
    func warning(jobs: String) -> String? {
        var reasons: [String] = []
        if url == nil { reasons.append("knows no git remote a CI runner can clone PayCheck from (PAYCHECK_SOURCE)") }
        if commit == nil { reasons.append("was built outside a git checkout (PAYCHECK_COMMIT)") }
        if reasons.isEmpty {
            guard hadChanges, let commit else { return nil }
            return "warning: this paycheck was built from \(commit) with uncommitted changes; the CI jobs in \(jobs) build \(commit) without them"
        }
        return "warning: this paycheck " + reasons.joined(separator: " and ")
            + ": set the lines marked EDIT in \(jobs), or a release's PAYCHECK_DOWNLOAD and PAYCHECK_SHA256"
    }
}
