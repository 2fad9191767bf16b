-- include: now_ms
-- KEYS: the workers, clocked. ARGV: game, how long its clocks could run
-- (ms), games a live worker serves at once.
-- Counts a new game on a real-time clock with a bot seat in, unless the
-- live workers already have as many as they serve: then returns 0, else 1.
-- Games whose clocks could no longer run are not counted, and are
-- forgotten after the ZADD, which Redis refuses when full: it is the first
-- write (scripts.py).
local workers = redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
if redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf') >= workers * tonumber(ARGV[3]) then
    return 0
end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
return 1
