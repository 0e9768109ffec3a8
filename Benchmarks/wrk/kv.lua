-- Workload (b) as wrk sees it: POST a JSON body to /__paycheck/kv, then GET it back and check the value,
-- the same request mix the runner sends. A 201 answer queues the GET of its id; a 200 answer is checked
-- against the value that was stored; a thread with nothing queued stores a new value.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local common = dofile(here .. "common.lua")
setup = common.setup

local queue, head, tail = {}, 1, 0
local expected = {}
local json = { ["Content-Type"] = "application/json" }

function init(args)
  flows, failures, stored = 0, 0, 0
end

function request()
  if head <= tail then
    local key = queue[head]
    queue[head] = nil
    head = head + 1
    return wrk.format("GET", "/__paycheck/kv/" .. key, nil, nil)
  end
  stored = stored + 1
  return wrk.format("POST", "/__paycheck/kv", json,
    '{"n":' .. stored .. ',"name":"case-' .. stored .. '","amount":165000}')
end

function response(status, headers, body)
  local key = body:match('"id":"([^"]+)"')
  local n = body:match('"n":(%d+)')
  if status == 201 and key and n then
    tail = tail + 1
    queue[tail] = key
    expected[key] = n
  elseif status == 200 and key and n and expected[key] == n then
    expected[key] = nil
    flows = flows + 1
  else
    failures = failures + 1
  end
end

function done(summary, latency, requests) common.done(summary, latency, { "flows", "failures" }) end
