-- include: now_ms
-- KEYS: taken. ARGV: lease ms, the job. Renews the lease of a job still
-- taken; returns 1, or 0 when it is not (done).
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then
    return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
return 1
