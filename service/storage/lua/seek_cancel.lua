-- include: now_ms
-- KEYS: the pool by rating, the pool by expiry, the seek's hash. Cancels the
-- seek if it still waits (it leaves the pool: no pairing can take it from
-- now on). Returns its hash as it is after (field, value, ...), or nil when
-- there is none.
if redis.call('EXISTS', KEYS[3]) == 0 then
    return nil
end
if redis.call('HGET', KEYS[3], 'status') == 'waiting' then
    local id = redis.call('HGET', KEYS[3], 'id')
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    if tonumber(redis.call('HGET', KEYS[3], 'expires_ms')) <= now then
        redis.call('HSET', KEYS[3], 'status', 'expired')
    else
        redis.call('HSET', KEYS[3], 'status', 'cancelled')
    end
end
return redis.call('HGETALL', KEYS[3])
