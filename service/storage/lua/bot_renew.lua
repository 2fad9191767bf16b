-- include: now_ms
-- KEYS: taken. ARGV: lease ms, the job. Renews the lease of a job still taken.
return redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[2])
