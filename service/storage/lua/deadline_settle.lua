-- KEYS: one shard of the deadline index. ARGV: game, leased score, next ('' = done).
-- Ends a timekeeper's lease on a game: schedules it at `next` (its actual
-- deadline, later than the index said) or removes it (its game is over or
-- gone), but only while the entry still holds the lease's score. A move
-- since then lowered it to a new deadline (ZADD LT): that entry stays.
-- Returns 1 when it settled, 0 when the entry had changed.
if redis.call('ZSCORE', KEYS[1], ARGV[1]) ~= ARGV[2] then
    return 0
end
if ARGV[3] == '' then
    redis.call('ZREM', KEYS[1], ARGV[1])
else
    redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
