-- unlist: take webhook `hook` off the index's `on:<event>` fields of `events`
-- (storage/webhooks.py), so that no notice finds it there any more.
local function unlist(index, hook, events)
    for _, event in ipairs(events) do
        local field = 'on:' .. event
        local listed = redis.call('HGET', index, field)
        if listed then
            local kept = {}
            for other in string.gmatch(listed, '%S+') do
                if other ~= hook then
                    kept[#kept + 1] = other
                end
            end
            if #kept == 0 then
                redis.call('HDEL', index, field)
            else
                redis.call('HSET', index, field, table.concat(kept, ' '))
            end
        end
    end
end
