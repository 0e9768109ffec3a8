#!/usr/bin/env bash
# Builds PayCheck as one binary with the Swift runtime linked in (release, --static-swift-stdlib) and installs it:
#   PREFIX/bin/paycheck                the binary (runs without the Swift toolchain)
#   PREFIX/share/paycheck/Suites/      the built-in suites, which `paycheck run` reads when the current folder has no Suites/
#   PREFIX/share/paycheck/Packs/       the merchant packs (`paycheck run --pack mollie`, `paycheck init --merchant mollie`)
# Usage: scripts/install.sh [PREFIX]   (default PREFIX: /usr/local)
set -euo pipefail
prefix=${1:-/usr/local}
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib)
echo "building paycheck (swift build ${flags[*]} --product paycheck)…"
swift build "${flags[@]}" --product paycheck 2>&1 | tail -n 2
bin=$(swift build "${flags[@]}" --show-bin-path)
mkdir -p "$prefix/bin" "$prefix/share/paycheck"
# Stripped: the symbols and debug information are most of its size (about 180 MB unstripped).
install -m 755 -s "$bin/paycheck" "$prefix/bin/paycheck.new"
mv -f "$prefix/bin/paycheck.new" "$prefix/bin/paycheck"
for folder in Suites Packs; do
  rm -rf "$prefix/share/paycheck/$folder.new"
  cp -R "$folder" "$prefix/share/paycheck/$folder.new"
  rm -rf "$prefix/share/paycheck/$folder"
  mv "$prefix/share/paycheck/$folder.new" "$prefix/share/paycheck/$folder"
done
echo "installed $prefix/bin/paycheck, $prefix/share/paycheck/Suites and $prefix/share/paycheck/Packs"
"$prefix/bin/paycheck" version
