-- KEYS: the delivery queue's due set, its jobs, its tries, the webhook's
-- pending set. Drops every delivery pending for the webhook (removed or
-- disabled); how many.
local ids = redis.call('ZRANGE', KEYS[4], 0, -1)
for _, id in ipairs(ids) do
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
end
redis.call('DEL', KEYS[4])
return #ids
