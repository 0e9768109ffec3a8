#!/usr/bin/env bash
# Runs providers' official client libraries (from PyPI) against a standalone `paycheck mock`,
# unchanged but for the base URL. Needs a built `paycheck` (swift build) and Python >= 3.13 for
# PlacetoPay's checkout-p2p; without such a Python the check is skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
python=""
for candidate in /root/.pyenv/versions/3.1[3-9]*/bin/python3 python3.13 python3; do
  if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 13))' >/dev/null 2>&1; then python=$candidate; break; fi
done
if [ -z "$python" ]; then
  echo "skipped: checkout-p2p needs Python >= 3.13, none found"
  exit 0
fi
venv="${TMPDIR:-/tmp}/paycheck-official-clients"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "checkout-p2p==1.0.0"

bin=$(swift build --show-bin-path)/paycheck
log=$(mktemp)
"$bin" mock --port 0 >"$log" 2>&1 &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
base=$(sed -n 's/^PayCheck mock listening on //p' "$log")
[ -n "$base" ] || { echo "the mock did not start"; cat "$log"; exit 1; }
"$venv/bin/python" scripts/official-clients/placetopay_checkout_p2p.py "$base"
