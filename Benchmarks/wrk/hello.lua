-- Hummingbird hello world: plain GET /, only the JSON summary is added (no per-request Lua work).
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local common = dofile(here .. "common.lua")
setup = common.setup
function done(summary, latency, requests) common.done(summary, latency) end
