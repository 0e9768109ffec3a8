#!/usr/bin/env bash
# Runs the Mollie Checkout demo's backend contract (Suites/mollie/demo-backend.yaml) against the reference
# merchant backend, with a standalone `paycheck mock` as its Mollie: app → backend → Mollie mock → webhook → backend.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product mollie-demo-backend 2>&1 | tail -n 1
. scripts/lib/standalone-mock.sh
start_mock
bin_dir=$(swift build --show-bin-path)
backend_log=$(mktemp)
port=$((20000 + RANDOM % 20000))
"$bin_dir/mollie-demo-backend" --port "$port" --mollie "$base/mollie" >"$backend_log" 2>&1 &
backend_pid=$!
trap 'kill $mock_pid $backend_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$backend_log" && break; sleep 0.1; done
"$bin_dir/paycheck" run Suites/mollie/demo-backend.yaml --target "url=$base" \
  --var "backend=http://127.0.0.1:$port" --no-reports --color never | tail -n 3
