-- include: notice
-- KEYS: the player's event stream, its webhooks' index (storage/webhooks.py).
-- ARGV: kind, data, maxlen, channel, wake-up message, ttl ms, then the webhook
-- events the notice counts as (none: the index is not read). Appends the event
-- (XADD, which grows memory, is the first write) and wakes its readers.
-- Returns the event's id, then each webhook that wants it and the event it
-- goes to that webhook as (the first of the events it listens to).
local found = {append_notice(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])}
local seen = {}
for i = 7, #ARGV do
    local listed = redis.call('HGET', KEYS[2], 'on:' .. ARGV[i])
    if listed then
        for hook in string.gmatch(listed, '%S+') do
            if not seen[hook] then
                seen[hook] = true
                found[#found + 1] = hook
                found[#found + 1] = ARGV[i]
            end
        end
    end
end
return found
