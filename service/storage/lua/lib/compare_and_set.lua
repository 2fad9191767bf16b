-- The compare-and-set that every script changing a game starts with. KEYS[1]
-- is the game's hash; `version` and `revision` ('*': any) are what the
-- caller judged its change on. Returns the hash's version, revision and
-- deadline when the game is still at them; else nil and the script's
-- answer, which changes nothing: nil when there is no game, {'moved',
-- version, revision, state} when it has moved on (the caller judges again
-- on the game as it is now).
local function compare_and_set(version, revision)
    local found = redis.call('HMGET', KEYS[1], 'version', 'revision', 'deadline')
    if not found[1] then
        return nil, nil
    end
    if tonumber(found[1]) ~= tonumber(version) or (revision ~= '*' and found[2] ~= revision) then
        return nil, {'moved', found[1], found[2], redis.call('HGET', KEYS[1], 'state')}
    end
    return found, nil
end
