-- include: now_ms
-- KEYS: the delivery queue's due set, its jobs, its tries, its wake list, then
-- each webhook's pending set (storage/webhooks.py). ARGV: the most deliveries
-- pending per webhook, then for each webhook its delivery's id and job.
-- Queues each delivery, due now (HSET, which grows memory, is the first
-- write); a webhook with more pending loses its oldest. Returns how many were dropped.
local most = tonumber(ARGV[1])
local dropped = 0
for i = 5, #KEYS do
    local id, job = ARGV[2 * (i - 5) + 2], ARGV[2 * (i - 5) + 3]
    redis.call('HSET', KEYS[2], id, job)
    redis.call('ZADD', KEYS[1], 'NX', now, id)
    redis.call('ZADD', KEYS[i], 'NX', now, id)
    while redis.call('ZCARD', KEYS[i]) > most do
        local oldest = redis.call('ZPOPMIN', KEYS[i])[1]
        redis.call('ZREM', KEYS[1], oldest)
        redis.call('HDEL', KEYS[2], oldest)
        redis.call('HDEL', KEYS[3], oldest)
        dropped = dropped + 1
    end
end
redis.call('LPUSH', KEYS[4], 1)
-- 63: webhooks._WAKE_TOKENS - 1
redis.call('LTRIM', KEYS[4], 0, 63)
return dropped
