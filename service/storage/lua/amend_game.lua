-- include: compare_and_set
-- KEYS: game. ARGV: version, revision, new revision, state, view.
-- Replaces the game's state and view (the caller's, with something beside the
-- play amended: a finished game's rematch) when it is still at that version
-- and revision: returns {'amended'}. Else nothing changes (the answer of
-- lib/compare_and_set.lua). The version stays: no move was made. 'changed' names the version whose body was
-- replaced, so reads stop answering 304 to that version's tag (a client's
-- copy of it may be the body before).
local found, moved = compare_and_set(ARGV[1], ARGV[2])
if not found then
    return moved
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3], 'state', ARGV[4], 'view', ARGV[5], 'changed', ARGV[1])
return {'amended'}
