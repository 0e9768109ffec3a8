-- PlacetoPay createSession: POST /placetopay/api/session with a valid, freshly signed auth object.
-- wrk's LuaJIT has no SHA-256, so the auth objects come pre-signed from a pool (generate.py pool);
-- the mock refuses a replayed nonce, so each pool entry is used once and a thread that runs out of
-- entries stops (wrk then divides by the shorter run time). No response() hook: wrk counts non-2xx.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local common = dofile(here .. "common.lua")
setup = common.setup

local seed, nonces, keys
local i = 0
local headers = { ["Content-Type"] = "application/json" }

function init(args)
  seed, nonces, keys = common.load_pool(id)
  used = 0
end

function request()
  i = i + 1
  if i > #nonces then
    wrk.thread:stop()
    i = #nonces
  end
  used = i
  local body = '{"auth":' .. common.auth(seed, nonces, keys, i)
    .. ',"payment":{"reference":"WRK-' .. id .. '-' .. i .. '","description":"PayCheck benchmark",'
    .. '"amount":{"currency":"COP","total":10000}},"returnUrl":"https://merchant.test/return",'
    .. '"ipAddress":"127.0.0.1","userAgent":"wrk"}'
  return wrk.format("POST", "/placetopay/api/session", headers, body)
end

function done(summary, latency, requests) common.done(summary, latency, { "used" }) end
