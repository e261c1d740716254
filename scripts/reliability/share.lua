-- wrk: POST /v2/handoff-sessions with a fresh UUIDv4 Idempotency-Key per request.
-- Environment: BENCH_AUTH (the whole Authorization header value), BENCH_PATH (default /v2/handoff-sessions).
local auth = os.getenv("BENCH_AUTH")
local path = os.getenv("BENCH_PATH") or "/v2/handoff-sessions"
local body = '{"catalogItemId":"cat_weight_care","disclosureVersion":"2025-06-01","affirmed":true,' ..
    '"affirmedAt":"2026-01-01T00:00:00Z"}'

function setup(thread)
    thread:set("seed", math.random(1, 2 ^ 30))
end

function init(args)
    math.randomseed(os.time() + (seed or 0) + math.floor(os.clock() * 1e6))
end

local function uuid4()
    local t = {}
    for i = 1, 16 do t[i] = math.random(0, 255) end
    t[7] = (t[7] % 16) + 64      -- version 4
    t[9] = (t[9] % 64) + 128     -- variant 10
    return string.format("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
        t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15], t[16])
end

function request()
    return wrk.format("POST", path, {
        ["Authorization"] = auth, ["Idempotency-Key"] = uuid4(), ["Content-Type"] = "application/json",
    }, body)
end

local statuses = {}
function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
end

-- BENCH_DELAY_MS paces each connection (milliseconds between a response and the next request), for a fixed
-- tap rate instead of a closed loop.
local pace = tonumber(os.getenv("BENCH_DELAY_MS") or "")
if pace then
    function delay()
        return pace
    end
end

function done(summary, latency, requests)
    io.write(string.format("non_201 %d\n", summary.requests - (summary.requests - (summary.errors.status or 0))))
end
