#!/usr/bin/env bash
# PayCheck benchmarks: ONE command that measures everything and writes docs/benchmarks.md.
#
#   Benchmarks/run.sh           full run: sizes 100/1,000/10,000, medians of 3, 10 s wrk runs
#   Benchmarks/run.sh --quick   sizes 100/1,000, one run each, 3 s wrk runs (for iterating)
#   Benchmarks/run.sh --compare OLD/.build/release/paycheck [--quick]   (--baseline is the same)
#                               also measures an older release binary against this tree's, interleaved run by
#                               run (old, new, old, new, ...), and adds a "Before/after" section with a row for
#                               every figure: wrk on createSession and on the (a) mix of each mock, each provider's
#                               lifecycle on each mock, runner flows/s over the --jobs sweep, wall times, peak RSS,
#                               lint and the built-in suites (a full run takes about 25-30 minutes more, --quick
#                               10-15 more, mostly waiting for a quiet machine)
#   --baseline-mock current     in that section, both runners talk to this tree's mock (default: each its own)
#   Benchmarks/run.sh --lifecycles
#                               only the provider lifecycles next to hello world (Benchmarks/lifecycle.py: 2,000
#                               sessions per provider, 32 at once, 3 interleaved rounds, about 5 minutes): rewrites
#                               only that section of docs/benchmarks.md, needs neither wrk nor Tavern
#   --max-wait SECONDS          longest wait for a 1-minute load below 1.0 before a measurement (default 600,
#                               --quick 120); on a busy machine it then measures anyway and records the load
#
# What it does, from a fresh clone:
#   1. installs wrk, hyperfine and time (apt-get) and Tavern (pip, into a venv under ${TMPDIR:-/tmp});
#   2. builds `paycheck` and the Hummingbird hello world `HelloBench` with `swift build -c release --static-swift-stdlib` (the binary scripts/install.sh installs);
#   3. runs Benchmarks/bench.py, which generates the workloads into a temporary directory (never into the
#      repository), starts and stops the servers itself, waits for a quiet machine before each measurement,
#      and writes docs/benchmarks.md (plus results.json in the temporary directory).
# Every background process is killed on exit (trap), and all traffic goes to 127.0.0.1.
set -euo pipefail

quick=()
extra=()
lifecycles_only=""
shown=""
usage="usage: Benchmarks/run.sh [--quick] [--lifecycles] [--compare|--baseline PATH [--baseline-mock own|current]] [--max-wait SECONDS]"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick); shown+=" --quick" ;;
    --baseline|--compare|--baseline-mock|--max-wait)
      [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
      value=$2
      if [ "$1" = --compare ]; then set -- --baseline "${@:2}"; fi
      if [ "$1" = --baseline ]; then
        [ -x "$value" ] && [ -f "$value" ] || { echo "--baseline $value: not an executable file" >&2; exit 2; }
        value=$(cd "$(dirname "$value")" && pwd)/$(basename "$value")
      fi
      extra+=("$1" "$value"); shown+=" $1 $value"; shift ;;
    --lifecycles) lifecycles_only=1 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
cd "$(dirname "$0")/.."
root=$(pwd)

step() { printf '\n== %s\n' "$*" >&2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/paycheck-bench.XXXXXX")
bench_pid=""
cleanup() {
  # bench.py stops its own servers; this catches anything left if it was killed.
  if [ -n "$bench_pid" ] && kill -0 "$bench_pid" 2>/dev/null; then kill "$bench_pid" 2>/dev/null || true; wait "$bench_pid" 2>/dev/null || true; fi
  jobs -p | xargs -r kill 2>/dev/null || true
  if [ -z "${PAYCHECK_BENCH_KEEP:-}" ]; then rm -rf "$work"; else echo "kept $work" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$lifecycles_only" ]; then
  step "release build"
  for product in paycheck HelloBench LifecycleBench; do swift build -c release --static-swift-stdlib --product "$product" 2>&1 | tail -n 1; done
  step "provider lifecycles next to hello world"
  python3 Benchmarks/lifecycle.py --bin "$(swift build -c release --static-swift-stdlib --show-bin-path)" --work "$work" \
    --out "$root/docs/benchmarks.md" --command "Benchmarks/run.sh --lifecycles"
  exit 0
fi

step "tools"
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
venv="${TMPDIR:-/tmp}/paycheck-bench-venv"
if [ ! -x "$venv/bin/pytest" ] || ! "$venv/bin/python" -c 'import tavern' 2>/dev/null; then
  python3 -m venv "$venv"
  # Tavern 3.7 imports _pytest.python_api, which pytest 9 removed: keep pytest 8.
  "$venv/bin/pip" install -q --disable-pip-version-check "tavern==3.7.1" "pytest<9"
fi
echo "wrk, hyperfine, /usr/bin/time and Tavern ready" >&2

step "release build"
swift build -c release --static-swift-stdlib --product paycheck 2>&1 | tail -n 1
swift build -c release --static-swift-stdlib --product HelloBench 2>&1 | tail -n 1
swift build -c release --static-swift-stdlib --product LifecycleBench 2>&1 | tail -n 1
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)

step "measurements (work directory $work)"
python3 Benchmarks/bench.py "${quick[@]}" "${extra[@]}" \
  --paycheck "$bin/paycheck" --hello "$bin/HelloBench" --lifecycle-bench "$bin/LifecycleBench" --venv "$venv" --work "$work" \
  --out "$root/docs/benchmarks.md" --command "Benchmarks/run.sh$shown" &
bench_pid=$!
wait "$bench_pid"
bench_pid=""
step "wrote docs/benchmarks.md; the targets:"
sed -n '/^## Targets/,/^Throughput/p' "$root/docs/benchmarks.md" | grep '^| ' | tail -n +2 | awk -F' [|] ' '{ printf "%-13s %s\n", ($NF ~ /missed/ ? "MISSED" : ($NF ~ /not measured/ ? "NOT MEASURED" : "met")), $1 }' | sed 's/^\(MISSED\|NOT MEASURED\|met\) *| /\1  /' 
