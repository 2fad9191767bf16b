-- include: now_ms
-- KEYS: taken. ARGV: the game id, lease ms. Extends the lease of an
-- analysis its worker is still computing (XX: one already taken over, and
-- so no longer leased to it, is not added back).
return redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
