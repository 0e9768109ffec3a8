#!/usr/bin/env bash
# Manual check: PlacetoPay's official PHP SDK (dnetix/redirection), unchanged, against a standalone `paycheck mock`
# on the default site. The SDK is not on PyPI or in Debian, so it is not part of CI: bring its source yourself,
# e.g. `git clone https://github.com/dnetix/redirection /tmp/redirection`, then
#   apt-get install -y php-cli php-curl php-mbstring php-guzzlehttp-guzzle php-psr-log
#   bash scripts/check-php-sdk.sh /tmp/redirection/src
set -euo pipefail
cd "$(dirname "$0")/.."
sdk=${1:?usage: scripts/check-php-sdk.sh PATH_TO_REDIRECTION_SRC}
bin=$(swift build --show-bin-path)/paycheck
log=$(mktemp)
"$bin" mock --port 0 >"$log" 2>&1 &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
base=$(sed -n 's/^PayCheck mock listening on //p' "$log")
[ -n "$base" ] || { echo "the mock did not start"; cat "$log"; exit 1; }
php scripts/official-clients/placetopay_php_sdk.php "$sdk" "$base"
