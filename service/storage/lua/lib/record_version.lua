-- The compare-and-set of a record kept as one hash of `version` and `text`
-- (a challenge, a tournament). KEYS[1] is the hash; `expected` is the
-- version the caller judged its change on (0: the record must not exist
-- yet). Returns the hash's version and text (false: no record yet) when it
-- is still at that version; else nil and the script's answer, which changes
-- nothing: {'absent'} when a change names a record that does not exist,
-- {'moved', version, text} when it has moved on (the caller judges again).
local function record_version(expected)
    local found = redis.call('HMGET', KEYS[1], 'version', 'text')
    local version = tonumber(found[1] or '0')
    if version ~= tonumber(expected) then
        if not found[1] then
            return nil, nil, {'absent'}
        end
        return nil, nil, {'moved', version, found[2]}
    end
    return version, found[2], nil
end
