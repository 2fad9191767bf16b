-- include: ring
-- KEYS: ring, the client's list, seq, wake, the ring's state, its served.
-- ARGV: game, version, kind, client.
-- INCR, which Redis refuses when full, is the first write: all or nothing.
local job = redis.call('INCR', KEYS[3]) .. ' ' .. ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. ARGV[4]
if redis.call('RPUSH', KEYS[2], job) == 1 then
    join(KEYS[1], KEYS[5], KEYS[6], ARGV[4])
end
redis.call('LPUSH', KEYS[4], 1)
-- 63: bot_jobs._WAKE_TOKENS - 1, the most wake tokens that wait (a test checks they agree)
redis.call('LTRIM', KEYS[4], 0, 63)
return 1
