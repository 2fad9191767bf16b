-- include: compare_and_set
-- KEYS: game[, events]. ARGV: version, revision, new revision, state, view,
-- deadline ('': unchanged)[, event, events maxlen, events TTL (ms), channel, wake-up].
-- Replaces the game's state and view (the caller's, with something beside the
-- play amended: a finished game's rematch, a seat's offer) when it is still at that version
-- and revision: returns {'amended'}. Else nothing changes (the answer of
-- lib/compare_and_set.lua). The version stays: no move was made. 'changed' names the version whose body was
-- replaced, so reads stop answering 304 to that version's tag (a client's
-- copy of it may be the body before).
--
-- With an event (an offer's), it goes into the game's stream in the same
-- script, between the version's move and the next (entry id `<version>-<n>`,
-- n from 1), so a reader resuming after the version gets it; a stream that
-- had expired (a game finished long ago) is given the TTL.
local found, moved = compare_and_set(ARGV[1], ARGV[2])
if not found then
    return moved
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3], 'state', ARGV[4], 'view', ARGV[5], 'changed', ARGV[1])
if ARGV[6] ~= '' then
    -- A clock paused (a correspondence vacation): the deadline later commits' clock checks judge by.
    redis.call('HSET', KEYS[1], 'deadline', ARGV[6])
end
if ARGV[7] then
    -- Numbered after the version's last entry (its move's, `<version>-0`, or an offer's); a
    -- stream that lost the move's entry (expired: a game finished long ago) still starts at 1.
    local version = tonumber(found[1])
    local seq = 1
    local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
    if last then
        local at, n = string.match(last[1], '^(%d+)-(%d+)$')
        if tonumber(at) == version then
            seq = tonumber(n) + 1
        elseif tonumber(at) > version then
            -- Events of later versions (Redis lost acknowledged moves, as lua/commit_move.lua
            -- says) describe moves that no longer exist.
            redis.call('DEL', KEYS[2])
        end
    end
    redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[8], version .. '-' .. seq, 'offer', ARGV[7])
    if redis.call('PTTL', KEYS[2]) < 0 then
        redis.call('PEXPIRE', KEYS[2], ARGV[9])
    end
    redis.call('PUBLISH', ARGV[10], ARGV[11])
end
return {'amended'}
