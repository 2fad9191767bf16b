-- KEYS: the delivery queue's due set, its jobs, its tries, the webhook's
-- pending set, its wake list (a retry wakes the senders, whose wait may end
-- after it is due). ARGV: the delivery's id, when it is due again (Redis's ms; '':
-- never: delivered, given up, or its webhook gone), and '1' when the try
-- taken with it was not made (the sender put it off). 1 when it was queued.
if ARGV[2] ~= '' then
    if ARGV[3] == '1' then
        redis.call('HINCRBY', KEYS[3], ARGV[1], -1)
    end
    local queued = redis.call('ZADD', KEYS[1], 'XX', 'CH', ARGV[2], ARGV[1])
    redis.call('LPUSH', KEYS[5], 1)
    redis.call('LTRIM', KEYS[5], 0, 63)
    return queued
end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
