-- Shared helpers for the PayCheck wrk scripts (loaded with dofile from each script).
-- Each script numbers its threads in setup(), keeps per-thread counters as globals, and prints one
-- JSON line in done() that Benchmarks/bench.py parses.

local M = {}

M.threads = {}

-- Gives every wrk thread an index (the global `id` in its own Lua state).
function M.setup(thread)
  thread:set("id", #M.threads)
  table.insert(M.threads, thread)
end

-- Reads the pre-signed auth pool written by generate.py: the seed, then the nonces and tranKeys
-- of this thread (lines "<thread>\t<nonce>\t<tranKey>").
function M.load_pool(thread_id)
  local path = os.getenv("PAYCHECK_POOL")
  local file = assert(io.open(path, "r"), "PAYCHECK_POOL must name the pool file")
  local seed = file:read("*l")
  local nonces, keys = {}, {}
  local mine = tostring(thread_id)
  for line in file:lines() do
    local t, nonce, key = line:match("^(%d+)\t([^\t]+)\t([^\t]+)$")
    if t == mine then
      nonces[#nonces + 1] = nonce
      keys[#keys + 1] = key
    end
  end
  file:close()
  return seed, nonces, keys
end

-- The JSON `auth` object for pool entry i.
function M.auth(seed, nonces, keys, i)
  return '{"login":"paycheck-test","tranKey":"' .. keys[i] .. '","nonce":"' .. nonces[i] .. '","seed":"' .. seed .. '"}'
end

-- Prints the run's figures as one JSON line prefixed with PAYCHECK_WRK_JSON.
function M.done(summary, latency, counters)
  local extra = {}
  for _, name in ipairs(counters or {}) do
    local total = 0
    for _, thread in ipairs(M.threads) do total = total + (tonumber(thread:get(name)) or 0) end
    extra[#extra + 1] = string.format('"%s":%d', name, total)
  end
  local e = summary.errors
  io.write(string.format(
    'PAYCHECK_WRK_JSON {"requests":%d,"duration_us":%d,"rps":%.1f,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,'
      .. '"connect_errors":%d,"read_errors":%d,"write_errors":%d,"timeouts":%d,"non2xx":%d%s}\n',
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.timeout, e.status,
    (#extra > 0 and "," .. table.concat(extra, ",") or "")))
end

return M
