-- include: now_ms
-- KEYS[1]: one of a player's sorted sets of pending challenges' ids by
-- expiry (epoch ms): the ones it made, or the ones made to it. ARGV: a
-- challenge's id, its expiry, the most the set may hold (0: no limit).
-- Drops the expired, then puts the challenge on it: -1 when put, else the
-- count held (as many as it may: not put). The set goes after its last.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if tonumber(ARGV[3]) > 0 and held >= tonumber(ARGV[3]) then
    return held
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return -1
