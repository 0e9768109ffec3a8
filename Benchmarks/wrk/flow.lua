-- Workload (a) as wrk sees it: createSession -> payer pay -> querySession (outcome APPROVED), the same
-- request mix the runner sends. Responses are matched to flows by their body (wrk does not say which
-- request a response answers): a create answer has "processUrl", a pay answer has "transaction", a
-- query answer has "request". Each answer queues the flow's next request; a thread with nothing
-- queued starts a new flow. Auth objects come pre-signed from the pool (see create.lua).
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local common = dofile(here .. "common.lua")
setup = common.setup

local seed, nonces, keys
local signed = 0
local queue, head, tail = {}, 1, 0
local json = { ["Content-Type"] = "application/json" }

function init(args)
  seed, nonces, keys = common.load_pool(id)
  flows, failures, started = 0, 0, 0
end

local function next_auth()
  signed = signed + 1
  if signed > #nonces then
    wrk.thread:stop()
    signed = #nonces
  end
  return common.auth(seed, nonces, keys, signed)
end

function request()
  if head <= tail then
    local step = queue[head]
    queue[head] = nil
    head = head + 1
    if step[1] == "pay" then
      return wrk.format("POST", "/__paycheck/placetopay/payer/pay", json,
        '{"requestId":' .. step[2] .. ',"card":"4110760000000081"}')
    end
    return wrk.format("POST", "/placetopay/api/session/" .. step[2], json, '{"auth":' .. next_auth() .. '}')
  end
  started = started + 1
  local body = '{"auth":' .. next_auth()
    .. ',"payment":{"reference":"WRK-' .. id .. '-' .. started .. '","description":"PayCheck benchmark",'
    .. '"amount":{"currency":"COP","total":10000}},"returnUrl":"https://merchant.test/return",'
    .. '"ipAddress":"127.0.0.1","userAgent":"wrk"}'
  return wrk.format("POST", "/placetopay/api/session", json, body)
end

function response(status, headers, body)
  if status ~= 200 then
    failures = failures + 1
    return
  end
  local requestId = body:match('"requestId":(%d+)')
  if not requestId then
    failures = failures + 1
  elseif body:find('"processUrl"', 1, true) then
    tail = tail + 1
    queue[tail] = { "pay", requestId }
  elseif body:find('"transaction"', 1, true) then
    tail = tail + 1
    queue[tail] = { "query", requestId }
  elseif body:find('"status":"APPROVED"', 1, true) then
    flows = flows + 1
  else
    failures = failures + 1
  end
end

function done(summary, latency, requests) common.done(summary, latency, { "flows", "failures" }) end
