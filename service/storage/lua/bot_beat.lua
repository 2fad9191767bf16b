-- include: now_ms
-- KEYS: the heartbeat, the workers. ARGV: the worker's name, ttl ms.
-- Says the worker is alive for ttl ms: the heartbeat any worker keeps up,
-- and the worker's own line among the live ones (those gone quiet leave).
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
return 1
