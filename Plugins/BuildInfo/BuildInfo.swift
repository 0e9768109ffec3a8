import Foundation
import PackagePlugin

/// Stamps the commit the binary is built from into `BuildInfo.swift` (`buildCommit`), read by `paycheck version`.
///
/// A prebuild command runs on every build, so the commit is never stale; the file is only rewritten when it changes,
/// so an unchanged commit recompiles nothing. Outside a git checkout (a source tarball) the commit is `unknown`, and
/// `PAYCHECK_BUILD_COMMIT` overrides it (a release pipeline that builds from an exported tree).
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let folder = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = #"""
            set -u
            mkdir -p "$2"
            commit=${PAYCHECK_BUILD_COMMIT:-}
            if [ -z "$commit" ]; then
              commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null || true)
              if [ -n "$commit" ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
                commit="$commit+changes"
              fi
            fi
            commit=$(printf '%s' "${commit:-unknown}" | tr -cd 'A-Za-z0-9.+_-')
            printf '/// Written by the BuildInfo plugin on every build.\nlet buildCommit = "%s"\n' "$commit" > "$2/BuildInfo.swift.new"
            if cmp -s "$2/BuildInfo.swift.new" "$2/BuildInfo.swift"; then rm -f "$2/BuildInfo.swift.new"; else mv "$2/BuildInfo.swift.new" "$2/BuildInfo.swift"; fi
            """#
        return [
            .prebuildCommand(
                displayName: "Stamping the commit into \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, folder.path],
                outputFilesDirectory: folder
            ),
        ]
    }
}
