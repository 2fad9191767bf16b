-- include: now_ms
-- KEYS: the pool by rating, the pool by expiry, the pool's notes, the seek's hash, its player's
-- set of waiting seeks (seek_post.lua). Cancels the
-- seek if it still waits (it leaves the pool: no pairing can take it from
-- now on). Returns its hash as it is after (field, value, ...), or nil when
-- there is none.
if redis.call('EXISTS', KEYS[4]) == 0 then
    return nil
end
if redis.call('HGET', KEYS[4], 'status') == 'waiting' then
    local id = redis.call('HGET', KEYS[4], 'id')
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
    redis.call('ZREM', KEYS[5], id)
    if tonumber(redis.call('HGET', KEYS[4], 'expires_ms')) <= now then
        redis.call('HSET', KEYS[4], 'status', 'expired')
    else
        redis.call('HSET', KEYS[4], 'status', 'cancelled')
    end
end
return redis.call('HGETALL', KEYS[4])
