-- include: now_ms
-- KEYS: the delivery queue's due set, its jobs, its tries, its wake list.
-- ARGV: the lease (ms), the most to take. Leases up to that many due
-- deliveries to the caller (due again when the lease ends: a sender that dies
-- loses none), counting a try for each. Returns id, job, try for each; when
-- none is due, the wake tokens are cleared.
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local found = {}
for _, id in ipairs(ids) do
    local job = redis.call('HGET', KEYS[2], id)
    if job then
        redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), id)
        found[#found + 1] = id
        found[#found + 1] = job
        found[#found + 1] = redis.call('HINCRBY', KEYS[3], id, 1)
    else
        redis.call('ZREM', KEYS[1], id)
    end
end
if #found == 0 then
    redis.call('DEL', KEYS[4])
end
return found
