#!/usr/bin/env bash
# Builds PayCheck as one fully static binary (release; the Swift runtime, Foundation, glibc, libxml2, ICU and lzma
# linked in: no shared library, no dynamic loader) and installs it:
#   PREFIX/bin/paycheck                the binary (runs without the Swift toolchain, on any x86_64 Linux)
#   PREFIX/share/paycheck/Suites/      the built-in suites, which `paycheck run` reads when the current folder has no Suites/
#   PREFIX/share/paycheck/Packs/       the merchant packs (`paycheck run --pack mollie`, `paycheck init --merchant mollie`)
# Fully static, the program's first instruction comes straight after exec: SIGINT and SIGTERM are held from then on
# (Sources/CPayCheckSignals), with no dynamic loader before it, so a signal at any moment of a run leaves this run's
# reports. Where the static libraries are missing (Debian/Ubuntu: libxml2-dev liblzma-dev libicu-dev), it links
# only the Swift runtime in (--static-swift-stdlib; then glibc and libxml2 are loaded at start) and says so.
# Usage: scripts/install.sh [PREFIX]   (default PREFIX: /usr/local)
set -euo pipefail
prefix=${1:-/usr/local}
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib)
static=(-Xswiftc -static-executable -Xlinker -llzma -Xlinker -licuuc -Xlinker -licudata -Xlinker -lstdc++ -Xlinker -lm)
echo "building paycheck (swift build ${flags[*]} ${static[*]} --product paycheck)…"
if swift build "${flags[@]}" "${static[@]}" --product paycheck >/tmp/paycheck-install.$$.log 2>&1; then
  flags+=("${static[@]}")
  tail -n 2 /tmp/paycheck-install.$$.log
else
  grep -E "error" /tmp/paycheck-install.$$.log | head -n 5 || true
  echo "warning: the fully static link failed (missing static libraries?); linking only the Swift runtime in" >&2
  swift build "${flags[@]}" --product paycheck 2>&1 | tail -n 2
fi
rm -f /tmp/paycheck-install.$$.log
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
