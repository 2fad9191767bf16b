-- The record under `key` in its string form, or false when there is none.
local function read_record(key)
    local value = redis.pcall('GET', key)
    if type(value) ~= 'table' then
        return value
    end
    -- WRONGTYPE: a hash record of an earlier version
    local old = redis.call('HMGET', key, 'fingerprint', 'answer')
    if old[1] and old[2] then
        return old[1] .. '\n' .. old[2]
    end
    return old[1]
end

local function answered(record)
    return record and string.find(record, '\n', 1, true) ~= nil
end
