-- KEYS: the player's webhooks (id -> record), its webhooks' index. ARGV: the
-- webhook's id, its record, the most a player has, then its events. Adds it
-- unless the player has the most already (0); 1 when added.
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
    return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
for i = 4, #ARGV do
    local field = 'on:' .. ARGV[i]
    local listed = redis.call('HGET', KEYS[2], field)
    redis.call('HSET', KEYS[2], field, listed and (listed .. ' ' .. ARGV[1]) or ARGV[1])
end
return 1
