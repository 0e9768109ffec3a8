#!/usr/bin/env bash
# Runs providers' official and independent client libraries (from PyPI) against a standalone `paycheck mock`,
# unchanged but for the base URL: PlacetoPay's checkout-p2p (needs Python >= 3.13; skipped with a message
# without one), khipu's pykhipu, khipu-python-sdk and khipu-tools, and Mollie's mollie-api-python and mollie-api-py
# (each in its own virtual environment: both install the package `mollie`). Needs a built `paycheck` (swift build).
set -euo pipefail
cd "$(dirname "$0")/.."
python=""
for candidate in /root/.pyenv/versions/3.1[3-9]*/bin/python3 python3.13 python3; do
  if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 13))' >/dev/null 2>&1; then python=$candidate; break; fi
done
venv="${TMPDIR:-/tmp}/paycheck-official-clients"
if [ -n "$python" ]; then
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "checkout-p2p==1.0.0"
fi
khipu_venv="${TMPDIR:-/tmp}/paycheck-khipu-clients"
[ -x "$khipu_venv/bin/python" ] || python3 -m venv "$khipu_venv"
"$khipu_venv/bin/pip" install -q --disable-pip-version-check "pykhipu==0.1.9" "khipu-python-sdk==0.4.0" "khipu-tools==2025.1.0"
mollie_legacy="${TMPDIR:-/tmp}/paycheck-mollie-legacy"
[ -x "$mollie_legacy/bin/python" ] || python3 -m venv "$mollie_legacy"
"$mollie_legacy/bin/pip" install -q --disable-pip-version-check "mollie-api-python==4.0.0" requests
mollie_generated="${TMPDIR:-/tmp}/paycheck-mollie-generated"
[ -x "$mollie_generated/bin/python" ] || python3 -m venv "$mollie_generated"
"$mollie_generated/bin/pip" install -q --disable-pip-version-check "mollie-api-py==1.10.20" requests

. scripts/lib/standalone-mock.sh
start_mock
if [ -n "$python" ]; then
  "$venv/bin/python" scripts/official-clients/placetopay_checkout_p2p.py "$base"
else
  echo "skipped: checkout-p2p needs Python >= 3.13, none found"
fi
"$khipu_venv/bin/python" scripts/official-clients/khipu_clients.py "$base" 2>&1 | grep -v '^_api_requestor.py'
"$mollie_legacy/bin/python" scripts/official-clients/mollie_clients.py legacy "$base"
"$mollie_generated/bin/python" scripts/official-clients/mollie_clients.py generated "$base"
