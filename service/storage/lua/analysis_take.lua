-- include: now_ms
-- KEYS: the queue, taken. ARGV: lease ms. Returns the game id of the next
-- analysis to compute, leased to the caller, or false. Leases run out on
-- Redis's clock: a job whose worker died goes back to the front of the
-- queue first, so it is computed before newer ones.
for _, game in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
    redis.call('ZREM', KEYS[2], game)
    redis.call('LPUSH', KEYS[1], game)
end
local game = redis.call('LPOP', KEYS[1])
if not game then
    return false
end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), game)
return game
