-- KEYS: counter. ARGV: window length in ms. Returns {count, ms left in window}.
-- The PTTL repair covers a counter that lost its expiry (e.g. restored from a
-- snapshot without it), which would otherwise block a client for good.
local count = redis.call('INCR', KEYS[1])
if count == 1 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    left = tonumber(ARGV[1])
end
return {count, left}
