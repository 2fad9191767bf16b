-- include: now_ms
-- KEYS: taken. ARGV: lease ms, count. Returns up to `count` jobs whose lease
-- has ended, each leased again to the caller.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, ARGV[2])
for _, job in ipairs(due) do
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), job)
end
return due
