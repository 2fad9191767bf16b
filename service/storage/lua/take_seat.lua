-- include: now_ms
-- KEYS: game. ARGV: version, revision, new revision, state, view, open until (epoch ms).
-- Stores the game with a seat taken (the caller's new state and view) when it
-- is still at that version and revision and the lobby's time (the store's
-- clock) is not up: returns 'taken'. Else nothing changes: 'expired', or
-- 'moved' with the version, revision and state stored now (the caller judges
-- the join again on them), or nil when there is no game. The version stays:
-- a join is not a move.
local found = redis.call('HMGET', KEYS[1], 'version', 'revision', 'state')
if not found[1] then
    return nil
end
if tonumber(found[1]) ~= tonumber(ARGV[1]) or (found[2] or '') ~= ARGV[2] then
    return {'moved', found[1], found[2] or '', found[3]}
end
if now >= tonumber(ARGV[6]) then
    return {'expired'}
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3], 'state', ARGV[4], 'view', ARGV[5])
return {'taken'}
