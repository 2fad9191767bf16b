-- KEYS: the person ring, the bots ring, taken, due. ARGV: the two lists' prefixes.
-- Returns the jobs not done: clocked, queued in every client's list, and taken.
local count = redis.call('ZCARD', KEYS[3]) + redis.call('ZCARD', KEYS[4])
for ring = 1, 2 do
    for _, client in ipairs(redis.call('ZRANGE', KEYS[ring], 0, -1)) do
        count = count + redis.call('LLEN', ARGV[ring] .. client)
    end
end
return count
