# Sourced by scripts that need a standalone `paycheck mock`: `start_mock` starts the built binary on a free port,
# waits until it listens, sets `base` (its URL) and `mock_pid`, and stops it when the script exits.
start_mock() {
  local bin log
  bin=$(swift build --show-bin-path)/paycheck
  log=$(mktemp)
  "$bin" mock --port 0 >"$log" 2>&1 &
  mock_pid=$!
  trap 'kill $mock_pid 2>/dev/null || true; rm -f "'"$log"'"' EXIT
  for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
  base=$(sed -n 's/^PayCheck mock listening on //p' "$log")
  [ -n "$base" ] || { echo "the mock did not start"; cat "$log"; exit 1; }
}
