import Foundation
import PackagePlugin

/// Stamps into `BuildInfo.swift` the commit the binary is built from (`buildCommit`, read by `paycheck version`) and
/// where its source can be fetched from (`buildSource`: the checkout's `origin` remote as configured, before any local
/// `insteadOf` rewrite), which `paycheck init` writes into the CI jobs that build PayCheck from source.
///
/// A prebuild command runs on every build, so neither is ever stale; the file is only rewritten when it changes, so an
/// unchanged commit recompiles nothing. Outside a git checkout (a source tarball), or without git, the commit is
/// `unknown` and the source empty: the build never fails for want of them. `PAYCHECK_BUILD_COMMIT` and
/// `PAYCHECK_BUILD_SOURCE` override them (a release pipeline that builds from an exported tree). Credentials in the
/// remote's URL (`https://user:token@host/…`) are dropped: they never go into the binary.
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
            source=${PAYCHECK_BUILD_SOURCE:-}
            if [ -z "$source" ]; then
              source=$(git -C "$1" config --get remote.origin.url 2>/dev/null || true)
            fi
            source=$(printf '%s' "$source" | head -n 1 | sed -E 's#^([A-Za-z][A-Za-z0-9+.-]*://)[^/]*@#\1#' 2>/dev/null | tr -cd 'A-Za-z0-9:/._~%+@=,-')
            printf '/// Written by the BuildInfo plugin on every build.\nlet buildCommit = "%s"\nlet buildSource = "%s"\n' "$commit" "$source" > "$2/BuildInfo.swift.new"
            if cmp -s "$2/BuildInfo.swift.new" "$2/BuildInfo.swift"; then rm -f "$2/BuildInfo.swift.new"; else mv "$2/BuildInfo.swift.new" "$2/BuildInfo.swift"; fi
            """#
        return [
            .prebuildCommand(
                displayName: "Stamping the commit into \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, folder.path],
                outputFilesDirectory: folder
            )
        ]
    }
}
