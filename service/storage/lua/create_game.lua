-- include: clock
-- KEYS: game, moves, events. ARGV (arguments.py): CreateArgs, then
-- ClockArgs (the first entry of the game's clock log with the check) or ''.
-- Returns 0 when a game already lives under the id (nothing changed); else
-- 1, or with a clock check (lib/clock.lua) the store's time of the creation,
-- the game's deadline kept beside its texts; {'skew', now} (nothing
-- changed) when the texts were written for a time too far from it.
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
local now, deadline = nil, nil
if clocked then
    local refused
    refused, now, deadline = clock_check(must_be, at_ms, new_deadline, nil)
    if refused then
        return {refused, now}
    end
end
redis.call('HSET', KEYS[1], 'version', 1, 'revision', revision, 'state', state, 'view', view)
if now then
    -- The clock log's first entry (lua/commit_move.lua says why one field a version).
    redis.call('HSET', KEYS[1], 'clock:1', clock_entry)
end
if deadline then
    redis.call('HSET', KEYS[1], 'deadline', deadline)
end
redis.call('PEXPIRE', KEYS[1], ttl_ms)
-- a history or events left by an expired game of the same id must not leak into this one
redis.call('DEL', KEYS[2], KEYS[3])
return now or 1
