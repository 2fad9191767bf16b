-- include: now_ms
-- KEYS[1]: a bot account's sorted set of the places it took in games against
-- other bot accounts, each scored by when it was taken (the store's epoch ms).
-- ARGV: a new place's id, the window (ms: a day), the most places the window
-- holds. Drops the places older than the window, then takes one: returns 0
-- when taken, else the ms until the oldest place leaves the window (as many
-- as it may hold: none taken). The set goes a window after its newest place.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return math.max(tonumber(oldest[2]) + tonumber(ARGV[2]) - now, 1)
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
