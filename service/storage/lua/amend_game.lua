-- KEYS: game. ARGV: version, revision, new revision, state, view.
-- Replaces the game's state and view (the caller's, with something beside the
-- play amended: a finished game's rematch) when it is still at that version
-- and revision: returns {'amended'}. Else nothing changes: {'moved',
-- version, revision, state}, or nil when there is no game. The version
-- stays: no move was made. 'changed' names the version whose body was
-- replaced, so reads stop answering 304 to that version's tag (a client's
-- copy of it may be the body before).
local found = redis.call('HMGET', KEYS[1], 'version', 'revision', 'state')
if not found[1] then
    return nil
end
if tonumber(found[1]) ~= tonumber(ARGV[1]) or found[2] ~= ARGV[2] then
    return {'moved', found[1], found[2], found[3]}
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3], 'state', ARGV[4], 'view', ARGV[5], 'changed', ARGV[1])
return {'amended'}
