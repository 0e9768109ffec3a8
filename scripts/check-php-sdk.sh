#!/usr/bin/env bash
# Manual check: PlacetoPay's official PHP SDK (dnetix/redirection), unchanged, against a standalone `paycheck mock`
# on the default site. The SDK is not on PyPI or in Debian, so it is not part of CI: bring its source yourself,
# e.g. `git clone https://github.com/dnetix/redirection /tmp/redirection`, then
#   apt-get install -y php-cli php-curl php-mbstring php-guzzlehttp-guzzle php-psr-log
#   bash scripts/check-php-sdk.sh /tmp/redirection/src
set -euo pipefail
cd "$(dirname "$0")/.."
sdk=${1:?usage: scripts/check-php-sdk.sh PATH_TO_REDIRECTION_SRC}
. scripts/lib/standalone-mock.sh
start_mock
php scripts/official-clients/placetopay_php_sdk.php "$sdk" "$base"
