-- KEYS: the analysis's result, the pending set, the queue. ARGV: the game id.
-- Returns 'done' when the analysis is stored, 'pending' when it is queued
-- or being computed (now or by an earlier request), 'queued' when this
-- request queued it: one job per game, however often it is asked for.
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 'done'
end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then
    return 'pending'
end
redis.call('RPUSH', KEYS[3], ARGV[1])
return 'queued'
