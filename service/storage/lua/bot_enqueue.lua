-- include: ring
-- KEYS: ring, the client's list, seq, wake, the ring's state, its served,
-- due, clocked. ARGV: game, version, kind, client, and for a game on a real-time
-- clock the bot's flag time and when the game's clocks could last run
-- (Redis's ms; '' for the rest).
-- INCR, which Redis refuses when full, is the first write: all or nothing.
local job = redis.call('INCR', KEYS[3]) .. ' ' .. ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. ARGV[4]
if ARGV[5] ~= '' then
    -- A clocked job is served by its flag time, before every ring.
    redis.call('ZADD', KEYS[7], ARGV[5], job)
    redis.call('ZADD', KEYS[8], 'GT', ARGV[6], ARGV[1])
elseif redis.call('RPUSH', KEYS[2], job) == 1 then
    join(KEYS[1], KEYS[5], KEYS[6], ARGV[4])
end
redis.call('LPUSH', KEYS[4], 1)
-- 63: bot_jobs._WAKE_TOKENS - 1, the most wake tokens that wait (a test checks they agree)
redis.call('LTRIM', KEYS[4], 0, 63)
return 1
