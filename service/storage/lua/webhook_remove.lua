-- include: unlist
-- KEYS: the player's webhooks, its webhooks' index, the webhook's delivery log.
-- ARGV: the webhook's id, then its events. Removes it with its state and log:
-- 1, or 0 when the player has no such webhook.
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then
    return 0
end
local events = {}
for i = 2, #ARGV do
    events[#events + 1] = ARGV[i]
end
unlist(KEYS[2], ARGV[1], events)
redis.call('HDEL', KEYS[2], 'failing:' .. ARGV[1], 'off:' .. ARGV[1])
redis.call('DEL', KEYS[3])
return 1
