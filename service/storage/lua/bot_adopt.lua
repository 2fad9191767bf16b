-- include: ring
-- KEYS: the old person stream, the old bots stream, the person ring, the bots
-- ring, seq, wake, the person ring's state, the bots ring's, the person
-- ring's served, the bots ring's. ARGV: the person lists' prefix, the bots
-- lists' prefix.
-- Moves the jobs that versions before this queue queued into Streams (fields
-- game and version, taken or not) into the lists, in the share of client ''.
-- Returns how many. The INCR comes first, as in bot_enqueue.
local adopted = 0
for old = 1, 2 do
    local kind = old == 1 and 'person' or 'bots'
    for _, entry in ipairs(redis.call('XRANGE', KEYS[old], '-', '+')) do
        local game, version
        local fields = entry[2]
        for i = 1, #fields, 2 do
            if fields[i] == 'game' then game = fields[i + 1] elseif fields[i] == 'version' then version = fields[i + 1] end
        end
        if game and version then
            local job = redis.call('INCR', KEYS[5]) .. ' ' .. game .. ' ' .. version .. ' ' .. kind .. ' '
            if redis.call('RPUSH', ARGV[old], job) == 1 then
                join(KEYS[old + 2], KEYS[old + 6], KEYS[old + 8], '')
            end
            adopted = adopted + 1
        end
    end
    redis.call('DEL', KEYS[old])
end
if adopted > 0 then
    redis.call('LPUSH', KEYS[6], 1)
end
return adopted
