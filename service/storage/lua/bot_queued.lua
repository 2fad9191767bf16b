-- KEYS: the person ring, the bots ring, taken. ARGV: the two lists' prefixes.
-- Returns the jobs not done: queued in every client's list, and taken.
local count = redis.call('ZCARD', KEYS[3])
for ring = 1, 2 do
    for _, client in ipairs(redis.call('ZRANGE', KEYS[ring], 0, -1)) do
        count = count + redis.call('LLEN', ARGV[ring] .. client)
    end
end
return count
