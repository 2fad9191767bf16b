-- include: answered
-- KEYS: game, record. ARGV: record, record_ttl_ms. Keeps an answer that is
-- already recorded (the first answer wins) and records nothing for a game
-- that is gone.
if redis.call('EXISTS', KEYS[1]) == 0 or answered(redis.call('GET', KEYS[2])) then
    return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1
